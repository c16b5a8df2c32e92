import Foundation

/// Consecutive writes of a replay run that go out as one PostgREST bulk request (a JSON array of
/// every write's rows, in queue order). Pure: which writes join is decided from the writes alone.
///
/// A write joins the batch before it when the one request does to each write exactly what the
/// write's own request would: an insert (or an upsert with the same conflict target and
/// duplicate handling) into the same table, with the same columns (so `columns=` names each
/// write's own; an insert with `missing=default` may leave out columns, which take their
/// default either way), that asks nothing back, carries its key values (so a lost answer can
/// be read back, and a resend cannot apply it twice), and whose keys no earlier row of the batch
/// has (one statement cannot write a row twice). Order is never changed: a batch only joins
/// writes that are next to each other in the run.
struct ReplayBatch: Sendable {
    /// The writes, in queue order.
    let writes: [ReplayRun.Write]

    /// The ids of the writes, in order.
    var ids: [UUID] { writes.map(\.mutation.id) }

    /// Whether a send of any of the writes was begun before this run.
    var wasAttempted: Bool { writes.contains { $0.life.wasAttempted } }

    /// The one write the request sends: the first write's table, operation and preferences,
    /// with the rows every write sends, in order.
    var request: Mutation {
        var request = writes[0].mutation
        guard writes.count > 1 else { return request }
        request.rows = writes.flatMap(\.mutation.sentRows)
        request.shownOnlyColumns = []
        return request
    }

    /// The first half of the writes and the rest, to find the writes at fault in a refused batch.
    var halves: (ReplayBatch, ReplayBatch) {
        let middle = writes.count / 2
        return (ReplayBatch(writes: Array(writes[..<middle])), ReplayBatch(writes: Array(writes[middle...])))
    }

    /// Cuts a run's writes into batches, in order, within `limits`; a write that may not share a
    /// request is a batch of its own.
    static func batches(
        of writes: [ReplayRun.Write], limits: ReplayBatching, primaryKeys: PrimaryKeys
    ) -> [ReplayBatch] {
        var batches: [ReplayBatch] = []
        var current: [ReplayRun.Write] = []
        var rows = 0
        var bytes = 0
        var keys = Set<[JSONValue]>()
        func close() {
            if !current.isEmpty { batches.append(ReplayBatch(writes: current)) }
            (current, rows, bytes, keys) = ([], 0, 0, [])
        }
        for write in writes {
            let mutation = write.mutation
            guard limits.maxRows > 1, mayJoinAny(mutation, primaryKeys: primaryKeys) else {
                close()
                batches.append(ReplayBatch(writes: [write]))
                continue
            }
            let size = JSONText.data(.array(mutation.sentRows.map(\.json))).count
            let ownKeys = conflictKeys(of: mutation, primaryKeys: primaryKeys)
            if let first = current.first?.mutation {
                let fits = rows + mutation.rows.count <= limits.maxRows && bytes + size <= limits.maxBytes
                if !fits || !joins(mutation, after: first) || !keys.isDisjoint(with: ownKeys) { close() }
            }
            current.append(write)
            rows += mutation.rows.count
            bytes += size
            keys.formUnion(ownKeys)
        }
        close()
        return batches
    }

    /// Whether a write may share a request at all.
    private static func mayJoinAny(_ mutation: Mutation, primaryKeys: PrimaryKeys) -> Bool {
        (mutation.operation == .insert || mutation.operation == .upsert) && mutation.isReadable
            && mutation.returning == nil && !mutation.rows.isEmpty && primaryKeys.resendIsSafe(mutation)
    }

    /// Whether `next` may go in the same request as the batch that `first` opened.
    private static func joins(_ next: Mutation, after first: Mutation) -> Bool {
        guard next.schema == first.schema, next.table == first.table, next.operation == first.operation,
            next.onConflict == first.onConflict, next.ignoreDuplicates == first.ignoreDuplicates,
            next.useDefaultForMissing == first.useDefaultForMissing
        else { return false }
        if next.operation == .insert && next.useDefaultForMissing { return true }
        return columns(of: next) == columns(of: first)
    }

    /// The columns a write sends: the union of its rows' keys.
    private static func columns(of mutation: Mutation) -> Set<String> {
        Set(mutation.sentRows.flatMap(\.values.keys))
    }

    /// The values of each row's conflict target (the primary key, or an upsert's `on_conflict`).
    private static func conflictKeys(of mutation: Mutation, primaryKeys: PrimaryKeys) -> Set<[JSONValue]> {
        let columns = mutation.onConflict ?? primaryKeys.columns(for: mutation.table)
        return Set(mutation.rows.map { row in columns.map { row[$0] ?? .null } })
    }
}
