import Foundation

/// The replay log: writes the server accepted, laid over lists fetched before them until every list of their table has been fetched again.
///
/// A view of an open `Store` (`store.replayLog`); its calls join the store's writer in call order.
package struct ReplayLogTable: Sendable {
    let store: Store

    /// How many replayed writes a table keeps; older ones are dropped on append.
    package static let limit = 1_000

    /// Takes a replayed write out of the queue and logs it at `tick`, in one transaction.
    /// Returns `false` (and changes nothing) when the write is not queued.
    @discardableResult
    nonisolated(nonsending) package func moveFromQueue(_ id: UUID, tick: Int64) async throws(StoreError)
        -> Bool
    {
        try await store.perform(writes: true, atomic: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            try Self.move(id, queueIndex, connection) { _, _ in tick } != nil
        }
    }

    /// Takes a replayed write out of the queue, logs it at a new tick and moves its table's
    /// change mark to that tick, all in one transaction (one commit where three calls would take
    /// three). Returns the tick, or `nil` (and changes nothing) when the write is not queued.
    nonisolated(nonsending) package func moveFromQueueAtNewTick(_ id: UUID) async throws(StoreError) -> Int64?
    {
        try await store.perform(writes: true, atomic: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) in
            try Self.move(id, queueIndex, connection) { schema, table throws(StoreError) in
                let tick = try Store.tick(connection)
                try connection.run(
                    "INSERT OR REPLACE INTO marks (schema_name, table_name, tick) VALUES (?, ?, ?)",
                    .text(schema),
                    .text(table), .integer(tick))
                return tick
            }
        }
    }

    /// Moves the queued write `id` to the log at the tick `tick(schema, table)` gives; `nil`
    /// when it is not queued. Runs inside a job's transaction.
    private static func move(
        _ id: UUID, _ queueIndex: QueueIndex, _ connection: SQLiteConnection,
        tick: (_ schema: String, _ table: String) throws(StoreError) -> Int64
    ) throws(StoreError) -> Int64? {
        let key = Store.idKey(id)
        guard let sequence = try queueIndex.sequence(of: key, connection) else { return nil }
        let found = try connection.query(
            "SELECT schema_name, table_name, payload FROM queue WHERE seq = ?", .integer(sequence)
        ) { row in (row.text(0) ?? "", row.text(1) ?? "", row.blob(2)) }
        guard let (schema, table, payload) = found.first else { return nil }
        let logged = try tick(schema, table)
        try connection.run("DELETE FROM queue WHERE seq = ?", .integer(sequence))
        try appendReplayed(id: id, schema: schema, table: table, payload: payload, tick: logged, connection)
        queueIndex.remove(key)
        return logged
    }

    /// Logs a write that was sent at once (never queued) as replayed at `tick`.
    nonisolated(nonsending) package func append(_ mutation: Mutation, tick: Int64)
        async throws(StoreError)
    {
        let payload = mutation.persistedData()
        try await store.perform(writes: true, atomic: true) { connection throws(StoreError) in
            try Self.appendReplayed(
                id: mutation.id, schema: Store.schemaKey(mutation.schema), table: mutation.table,
                payload: payload,
                tick: tick, connection)
        }
    }

    /// The replayed writes of a table, oldest first (at most `limit`).
    nonisolated(nonsending) package func writes(table: String, schema: String? = nil)
        async throws(StoreError)
        -> [ReplayedWrite]
    {
        let records = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT payload, tick FROM replay_log WHERE schema_name = ? AND table_name = ? ORDER BY seq",
                .text(Store.schemaKey(schema)), .text(table)
            ) { row in (payload: row.blob(0), tick: row.integer(1)) }
        }
        var writes: [ReplayedWrite] = []
        for record in records {
            writes.append(
                ReplayedWrite(mutation: try Store.mutation(from: record.payload), tick: record.tick))
        }
        return writes
    }

    /// Retires a table's replayed writes logged at or before `tick` (every list has been fetched
    /// since). Returns how many were removed.
    @discardableResult
    nonisolated(nonsending) package func retire(
        table: String, schema: String? = nil, through tick: Int64
    )
        async throws(StoreError) -> Int
    {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try connection.run(
                "DELETE FROM replay_log WHERE schema_name = ? AND table_name = ? AND tick <= ?",
                .text(Store.schemaKey(schema)), .text(table), .integer(tick))
            return connection.changes
        }
    }

    private static func appendReplayed(
        id: UUID, schema: String, table: String, payload: Data, tick: Int64, _ connection: SQLiteConnection
    ) throws(StoreError) {
        try connection.run(
            "INSERT INTO replay_log (id, schema_name, table_name, payload, tick) VALUES (?, ?, ?, ?, ?)",
            .text(Store.idKey(id)), .text(schema), .text(table), .blob(payload), .integer(tick))
        try connection.run(
            """
            DELETE FROM replay_log WHERE schema_name = ?1 AND table_name = ?2 AND seq <= (
                SELECT seq FROM replay_log WHERE schema_name = ?1 AND table_name = ?2
                ORDER BY seq DESC LIMIT 1 OFFSET ?3)
            """,
            .text(schema), .text(table), .integer(Int64(limit)))
    }
}
