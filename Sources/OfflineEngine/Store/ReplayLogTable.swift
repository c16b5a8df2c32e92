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
            let key = Store.idKey(id)
            guard let sequence = try queueIndex.sequence(of: key, connection) else { return false }
            let found = try connection.query(
                "SELECT schema_name, table_name, payload FROM queue WHERE seq = ?", .integer(sequence)
            ) { row in (row.text(0) ?? "", row.text(1) ?? "", row.blob(2)) }
            guard let (schema, table, payload) = found.first else { return false }
            try connection.run("DELETE FROM queue WHERE seq = ?", .integer(sequence))
            try Self.appendReplayed(
                id: id, schema: schema, table: table, payload: payload, tick: tick, connection)
            queueIndex.remove(key)
            return true
        }
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
