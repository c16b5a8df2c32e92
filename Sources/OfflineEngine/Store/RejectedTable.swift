import Foundation

/// The writes the server refused, kept until the app dismisses them.
///
/// A view of an open `Store` (`store.rejected`); its calls join the store's writer in call order.
package struct RejectedTable: Sendable {
    let store: Store

    /// Moves a queued write the server refused to the rejected writes, in one transaction; it stays
    /// there until dismissed. Returns `false` (and changes nothing) when the write is not queued.
    /// `replacement` is stored instead of the queued bytes (for bytes that could not be read).
    @discardableResult
    nonisolated(nonsending) package func add(
        _ id: UUID, details: RejectionDetails, at date: Date = Date(), storing replacement: Data? = nil
    ) async throws(StoreError) -> Bool {
        try await store.perform(writes: true, atomic: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            guard let sequence = try queueIndex.sequence(of: id, connection) else { return false }
            let found = try connection.query(
                "SELECT payload, owner FROM queue WHERE seq = ?", .integer(sequence)
            ) { row in (row.blob(0), row.text(1)) }
            guard let (queued, owner) = found.first else { return false }
            let payload = replacement ?? queued
            try connection.run("DELETE FROM queue WHERE seq = ?", .integer(sequence))
            queueIndex.remove(id)
            try connection.run(
                """
                INSERT OR REPLACE INTO rejected
                    (id, payload, status, code, message, details, hint, rejected_at, owner)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .text(Store.idKey(id)), .blob(payload), .integer(Int64(details.status)),
                .optional(details.code),
                .text(details.message), .optional(details.details), .optional(details.hint),
                .real(date.timeIntervalSince1970), .optional(owner))
            return true
        }
    }

    /// The writes the server refused and the app has not dismissed, oldest first.
    nonisolated(nonsending) package func all() async throws(StoreError) -> [RejectedWrite] {
        let records = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT payload, status, code, message, details, hint, rejected_at FROM rejected ORDER BY seq"
            ) { row in
                (
                    payload: row.blob(0),
                    details: RejectionDetails(
                        status: Int(row.integer(1)), code: row.text(2), message: row.text(3) ?? "",
                        details: row.text(4), hint: row.text(5)),
                    date: Date(timeIntervalSince1970: row.real(6))
                )
            }
        }
        var writes: [RejectedWrite] = []
        for record in records {
            writes.append(
                RejectedWrite(
                    mutation: try Store.mutation(from: record.payload), details: record.details,
                    rejectedAt: record.date))
        }
        return writes
    }

    /// Forgets a rejected write the app has shown or handled. Returns `false` when there was none.
    @discardableResult
    nonisolated(nonsending) package func dismiss(_ id: UUID) async throws(StoreError) -> Bool {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try connection.run("DELETE FROM rejected WHERE id = ?", .text(Store.idKey(id)))
            return connection.changes > 0
        }
    }

    /// Moves a rejected write back to the end of the queue as `mutation` (its values possibly
    /// edited by the app), in one transaction: it is never both rejected and queued, nor neither.
    /// Returns `false` (and changes nothing) when no rejected write has its id.
    nonisolated(nonsending) package func requeue(_ mutation: Mutation) async throws(StoreError) -> Bool {
        let payload = mutation.persistedData()
        return try await store.perform(writes: true, atomic: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            try connection.run("DELETE FROM rejected WHERE id = ?", .text(Store.idKey(mutation.id)))
            guard connection.changes > 0 else { return false }
            try connection.run(
                """
                INSERT INTO queue
                    (id, owner, schema_name, table_name, operation, payload, created_at, attempts,
                     in_flight)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0)
                """,
                .text(Store.idKey(mutation.id)), .optional(mutation.ownerID),
                .text(Store.schemaKey(mutation.schema)),
                .text(mutation.table), .text(mutation.operation.rawValue), .blob(payload),
                .real(mutation.createdAt.timeIntervalSince1970))
            queueIndex.insert(mutation.id, sequence: connection.lastInsertRowID)
            return true
        }
    }
}
