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
/// has (one statement cannot write a row twice); or a delete of one row by its key, or an update
/// of one row by its key making the same change, after others of the same table (one request
/// names their keys in `key=in.(…)`). Order is never changed: a batch only joins writes that are
/// next to each other in the run.
struct ReplayBatch: Sendable {
    /// The writes, in queue order.
    let writes: [ReplayRun.Write]

    /// The ids of the writes, in order.
    var ids: [UUID] { writes.map(\.mutation.id) }

    /// Whether a send of any of the writes was begun before this run.
    var wasAttempted: Bool { writes.contains { $0.life.wasAttempted } }

    /// Whether an earlier send of any of the writes may have been applied (its answer was lost).
    var mayHaveBeenApplied: Bool { writes.contains { $0.life.mayHaveBeenApplied } }

    /// The one write the request sends: the first write's table, operation and preferences,
    /// with the rows every write sends, in order (an insert or upsert), or with the keys of every
    /// write in one `in` filter (an update or delete).
    var request: Mutation {
        var request = writes[0].mutation
        guard writes.count > 1 else { return request }
        switch request.operation {
        case .insert, .upsert:
            request.rows = writes.flatMap(\.mutation.sentRows)
            request.shownOnlyColumns = []
        case .update, .delete:
            guard let column = Self.keyFilter(of: request)?.column else { return request }
            let values = writes.compactMap { Self.keyFilter(of: $0.mutation)?.value }
            request.filters = [.condition(FilterCondition(column: column, op: .in, operand: .list(values)))]
        }
        return request
    }

    /// How many keys an update or delete batch names at most, so that its URL stays short.
    static let keysPerRequest = 100

    /// The first half of the writes and the rest, to find the writes at fault in a refused batch.
    var halves: (ReplayBatch, ReplayBatch) {
        let middle = writes.count / 2
        return (ReplayBatch(writes: Array(writes[..<middle])), ReplayBatch(writes: Array(writes[middle...])))
    }

    /// Cuts a run's writes into batches, in order, within `limits`, the first of at most
    /// `firstAtMost` writes; a write that may not share a request is a batch of its own.
    static func batches(
        of writes: [ReplayRun.Write], limits: ReplayBatching, primaryKeys: PrimaryKeys,
        firstAtMost: Int? = nil
    ) -> [ReplayBatch] {
        var batches: [ReplayBatch] = []
        var firstAtMost = firstAtMost
        var current: [ReplayRun.Write] = []
        var rows = 0
        var bytes = 0
        var keys = Set<[JSONValue]>()
        func close() {
            if !current.isEmpty {
                batches.append(ReplayBatch(writes: current))
                firstAtMost = nil
            }
            (current, rows, bytes, keys) = ([], 0, 0, [])
        }
        for write in writes {
            let mutation = write.mutation
            guard limits.maxRows > 1, mayJoinAny(mutation, primaryKeys: primaryKeys) else {
                close()
                batches.append(ReplayBatch(writes: [write]))
                firstAtMost = nil
                continue
            }
            let byKey = mutation.operation == .update || mutation.operation == .delete
            let size = byKey ? 0 : JSONText.data(.array(mutation.sentRows.map(\.json))).count
            let count = byKey ? 1 : mutation.rows.count
            let maxRows = byKey ? min(limits.maxRows, keysPerRequest) : limits.maxRows
            let ownKeys = conflictKeys(of: mutation, primaryKeys: primaryKeys)
            if let first = current.first?.mutation {
                let fits =
                    rows + count <= maxRows && bytes + size <= limits.maxBytes
                    && current.count < firstAtMost ?? .max
                if !fits || !joins(mutation, after: first) || !keys.isDisjoint(with: ownKeys) { close() }
            }
            current.append(write)
            rows += count
            bytes += size
            keys.formUnion(ownKeys)
        }
        close()
        return batches
    }

    /// Whether a write may share a request at all: an insert or upsert carrying its keys, or an
    /// update or delete of one row by its key (`eq` on the table's one key column), that asks
    /// nothing back and need not reach a row.
    private static func mayJoinAny(_ mutation: Mutation, primaryKeys: PrimaryKeys) -> Bool {
        guard mutation.isReadable, mutation.returning == nil else { return false }
        switch mutation.operation {
        case .insert, .upsert:
            return !mutation.rows.isEmpty && primaryKeys.resendIsSafe(mutation)
        case .update, .delete:
            guard !mutation.expectsRows, let filter = keyFilter(of: mutation) else { return false }
            return primaryKeys.columns(for: mutation.table) == [filter.column]
        }
    }

    /// Whether `next` may go in the same request as the batch that `first` opened.
    private static func joins(_ next: Mutation, after first: Mutation) -> Bool {
        guard next.schema == first.schema, next.table == first.table, next.operation == first.operation,
            next.onConflict == first.onConflict, next.ignoreDuplicates == first.ignoreDuplicates,
            next.useDefaultForMissing == first.useDefaultForMissing
        else { return false }
        switch next.operation {
        case .update:
            // The same change to other rows: one `PATCH` of their keys does what each does.
            return next.sentRows == first.sentRows
        case .delete:
            return true
        case .insert, .upsert:
            if next.operation == .insert && next.useDefaultForMissing { return true }
            return columns(of: next) == columns(of: first)
        }
    }

    /// The key column and value of an update or delete whose one filter is `key=eq.value`.
    private static func keyFilter(of mutation: Mutation) -> (column: String, value: String)? {
        guard mutation.filters.count == 1, case .condition(let condition) = mutation.filters[0],
            condition.op == .eq, !condition.negated, case .value(let value) = condition.operand
        else { return nil }
        return (condition.column, value)
    }

    /// The columns a write sends: the union of its rows' keys.
    private static func columns(of mutation: Mutation) -> Set<String> {
        Set(mutation.sentRows.flatMap(\.values.keys))
    }

    /// The values of each row's conflict target (the primary key, or an upsert's `on_conflict`),
    /// or the key an update or delete names.
    private static func conflictKeys(of mutation: Mutation, primaryKeys: PrimaryKeys) -> Set<[JSONValue]> {
        if let filter = keyFilter(of: mutation) { return [[.string(filter.value)]] }
        let columns = mutation.onConflict ?? primaryKeys.columns(for: mutation.table)
        return Set(mutation.rows.map { row in columns.map { row[$0] ?? .null } })
    }
}
