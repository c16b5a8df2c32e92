import Foundation

/// The queued writes, in the order they were made, with their attempts, in-flight flag and owner.
///
/// A view of an open `Store` (`store.queue`); its calls join the store's writer in call order.
package struct QueueTable: Sendable {
    let store: Store

    /// Appends a write to the queue; returns once it is on disk, so a crash after this loses
    /// nothing. Writes keep the order in which `enqueue` was called. `interrupted` records that
    /// an earlier attempt (a send at once) got no answer that settled it: the server may have
    /// applied it, as for a write in flight when the app died.
    nonisolated(nonsending) package func enqueue(_ mutation: Mutation, interrupted: Bool = false)
        async throws(StoreError)
    {
        let payload = mutation.persistedData()
        let id = Store.idKey(mutation.id)
        try await store.perform(writes: true, oneStatement: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            guard try queueIndex.sequence(of: mutation.id, connection) == nil else {
                throw .failed(code: 2_067, detail: "a write with this id is already queued")
            }
            try connection.run(
                """
                INSERT INTO queue
                    (id, owner, schema_name, table_name, operation, payload, created_at, attempts,
                     in_flight)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .text(id), .optional(mutation.ownerID), .text(Store.schemaKey(mutation.schema)),
                .text(mutation.table), .text(mutation.operation.rawValue), .blob(payload),
                .real(mutation.createdAt.timeIntervalSince1970), .integer(Int64(mutation.attempts)),
                .integer(interrupted ? 1 : 0))
            queueIndex.insert(mutation.id, sequence: connection.lastInsertRowID)
        }
    }

    /// Every queued write, oldest first.
    nonisolated(nonsending) package func all() async throws(StoreError) -> [QueuedWrite] {
        let records = try await store.perform(writes: false) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            let records = try connection.query(
                "SELECT \(Self.columns) FROM queue ORDER BY seq",
                row: Self.record)
            // The whole queue was read: the index of ids comes with it, not in a second pass at
            // the first write.
            queueIndex.fill(
                records.compactMap { record in UUID(uuidString: record.id).map { ($0, record.sequence) } })
            return records
        }
        return try Self.queuedWrites(records)
    }

    /// The queued writes of one owner (`nil`: writes made while nobody was signed in), oldest first.
    nonisolated(nonsending) package func owned(by owner: String?) async throws(StoreError) -> [QueuedWrite] {
        let records = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.columns) FROM queue WHERE owner IS ? ORDER BY seq",
                .optional(owner), row: Self.record)
        }
        return try Self.queuedWrites(records)
    }

    /// How many writes wait in the queue.
    nonisolated(nonsending) package func count() async throws(StoreError) -> Int {
        try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query("SELECT count(*) FROM queue") { row in Int(row.integer(0)) }.first ?? 0
        }
    }

    /// Marks a write as sent and not yet answered; if the app dies now it is reported in
    /// `interruptedWrites` at the next open. Returns `false` when the write is not queued.
    @discardableResult
    nonisolated(nonsending) package func markInFlight(_ id: UUID) async throws(StoreError) -> Bool {
        try await update("UPDATE queue SET in_flight = 1 WHERE seq = ?", id)
    }

    /// Marks a write as sent and not yet answered and counts the attempt, in one commit. Returns
    /// `false` when the write is not queued (cleared, settled): it must not be sent.
    nonisolated(nonsending) func beginAttempt(_ id: UUID) async throws(StoreError) -> Bool {
        try await beginAttempts([id]).contains(id)
    }

    /// Begins the attempts of a replay run in one commit: each write still queued is marked in
    /// flight and its attempt counted. Returns the ids it marked; the others must not be sent.
    nonisolated(nonsending) func beginAttempts(_ ids: [UUID]) async throws(StoreError) -> Set<UUID> {
        try await store.perform(writes: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            var begun = Set<UUID>()
            for id in ids {
                guard let sequence = try queueIndex.sequence(of: id, connection) else {
                    continue
                }
                try connection.run(
                    "UPDATE queue SET in_flight = 1, attempts = attempts + 1 WHERE seq = ?",
                    .integer(sequence))
                if connection.changes > 0 { begun.insert(id) }
            }
            return begun
        }
    }

    /// Takes back attempts begun but never sent, in one commit: each attempt is no longer
    /// counted, and the in-flight mark is cleared for the writes in `clearingMarks` (those no
    /// earlier send may have applied).
    nonisolated(nonsending) func abandonAttempts(_ ids: [UUID], clearingMarks: Set<UUID>)
        async throws(StoreError)
    {
        try await store.perform(writes: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            for id in ids {
                guard let sequence = try queueIndex.sequence(of: id, connection) else {
                    continue
                }
                try connection.run(
                    """
                    UPDATE queue SET attempts = max(attempts - 1, 0),
                        in_flight = CASE WHEN ?2 THEN 0 ELSE in_flight END
                    WHERE seq = ?1
                    """,
                    .integer(sequence), .integer(clearingMarks.contains(id) ? 1 : 0))
            }
        }
    }

    /// Clears the in-flight marker once the server's answer shows the write was not applied.
    @discardableResult
    nonisolated(nonsending) package func clearInFlight(_ id: UUID) async throws(StoreError) -> Bool {
        try await update("UPDATE queue SET in_flight = 0 WHERE seq = ?", id)
    }

    /// Counts one more attempt to send a write. Returns `false` when the write is not queued.
    @discardableResult
    nonisolated(nonsending) package func recordAttempt(_ id: UUID) async throws(StoreError) -> Bool {
        try await update("UPDATE queue SET attempts = attempts + 1 WHERE seq = ?", id)
    }

    /// Takes a write out of the queue (settled, or given up). Returns `false` when it was not queued.
    @discardableResult
    nonisolated(nonsending) package func remove(_ id: UUID) async throws(StoreError) -> Bool {
        try await store.perform(writes: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            guard let sequence = try queueIndex.sequence(of: id, connection) else { return false }
            try connection.run("DELETE FROM queue WHERE seq = ?", .integer(sequence))
            queueIndex.remove(id)
            return true
        }
    }

    /// Gives the writes made while nobody was signed in to `owner`. Returns how many changed hands.
    @discardableResult
    nonisolated(nonsending) package func claimUnownedWrites(for owner: String) async throws(StoreError) -> Int
    {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try Self.claimUnownedWrites(for: owner, connection)
        }
    }

    /// ``claimUnownedWrites(for:)`` inside a job already running (a sign-in's one commit).
    static func claimUnownedWrites(for owner: String, _ connection: SQLiteConnection) throws(StoreError)
        -> Int
    {
        try connection.run("UPDATE queue SET owner = ? WHERE owner IS NULL", .text(owner))
        return connection.changes
    }

    /// Runs one statement on a queued write's row (bound to its `seq`); `false` when not queued.
    nonisolated(nonsending) private func update(_ sql: String, _ id: UUID) async throws(StoreError) -> Bool {
        try await store.perform(writes: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            guard let sequence = try queueIndex.sequence(of: id, connection) else {
                return false
            }
            try connection.run(sql, .integer(sequence))
            return connection.changes > 0
        }
    }

    /// The columns a queued write is read back from, in ``record(_:)``'s order.
    private static let columns =
        "seq, payload, attempts, in_flight, owner, id, schema_name, table_name, operation, created_at"

    private struct QueueRecord: Sendable {
        var sequence: Int64
        var payload: Data
        var attempts: Int64
        var inFlight: Bool
        var owner: String?
        var id: String
        var schema: String
        var table: String
        var operation: String
        var createdAt: Double
    }

    private static func record(_ row: SQLiteRow) -> QueueRecord {
        QueueRecord(
            sequence: row.integer(0), payload: row.blob(1), attempts: row.integer(2),
            inFlight: row.integer(3) != 0, owner: row.text(4), id: row.text(5) ?? "",
            schema: row.text(6) ?? "", table: row.text(7) ?? "", operation: row.text(8) ?? "",
            createdAt: row.real(9))
    }

    /// The writes of `records`, from their columns; their stored bytes are decoded when first
    /// needed (see `StoredBody`). Columns that are not a write's mean the file is damaged.
    private static func queuedWrites(_ records: [QueueRecord]) throws(StoreError) -> [QueuedWrite] {
        var writes: [QueuedWrite] = []
        writes.reserveCapacity(records.count)
        for record in records {
            guard let id = UUID(uuidString: record.id),
                let operation = MutationOperation(rawValue: record.operation), !record.table.isEmpty
            else { throw .corrupt }
            let mutation = Mutation(
                storedAs: record.payload, id: id, ownerID: record.owner,
                schema: record.schema.isEmpty ? nil : record.schema, table: record.table,
                operation: operation, createdAt: Date(timeIntervalSince1970: record.createdAt),
                attempts: Int(record.attempts))
            writes.append(
                QueuedWrite(mutation: mutation, sequence: record.sequence, isInFlight: record.inFlight))
        }
        return writes
    }
}
