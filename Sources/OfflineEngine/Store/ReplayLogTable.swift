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
            guard let (schema, table, _) = try Self.move(id, queueIndex, connection, tick: tick) else {
                return false
            }
            try Self.trim(schema: schema, table: table, connection)
            return true
        }
    }

    /// Takes a replayed write out of the queue, logs it at a new tick and moves its table's
    /// change mark to that tick, all in one transaction (one commit where three calls would take
    /// three). Returns the tick, or `nil` (and changes nothing) when the write is not queued.
    nonisolated(nonsending) package func moveFromQueueAtNewTick(_ id: UUID) async throws(StoreError) -> Int64?
    {
        try await moveFromQueueAtNewTick([id])?.tick
    }

    /// Takes replayed writes out of the queue and logs them, in queue order, at one new tick, and
    /// moves their tables' change marks to it: one commit for a whole replay run. Returns the
    /// tick and the ids moved (those still queued), or `nil` (and changes nothing) when none is.
    nonisolated(nonsending) package func moveFromQueueAtNewTick(
        _ ids: [UUID], returned: [UUID: [Row]] = [:]
    ) async throws(StoreError) -> (tick: Int64, ids: Set<UUID>)? {
        // Taken in call order, as the store runs its work; unused (a gap) when nothing moves.
        let tick = store.ticks.next()
        return try await store.perform(writes: true, atomic: true) {
            [queueIndex = store.queueIndex] connection throws(StoreError) -> (tick: Int64, ids: Set<UUID>)? in
            var queued: [UUID] = []
            for id in ids where try queueIndex.sequence(of: id, connection) != nil { queued.append(id) }
            guard !queued.isEmpty else { return nil }
            try Store.storeTick(tick, connection)
            var moved: [UUID: String?] = [:]
            var tables: [(schema: String, table: String)] = []
            for id in queued {
                guard let (schema, table, owner) = try Self.move(id, queueIndex, connection, tick: tick)
                else {
                    continue
                }
                moved[id] = owner
                if !tables.contains(where: { $0 == (schema, table) }) { tables.append((schema, table)) }
            }
            for (schema, table) in tables {
                try connection.run(
                    "INSERT OR REPLACE INTO marks (schema_name, table_name, tick) VALUES (?, ?, ?)",
                    .text(schema), .text(table), .integer(tick))
                try Self.trim(schema: schema, table: table, connection)
            }
            try AcceptedTable.record(moved, returned: returned, connection)
            return (tick, Set(moved.keys))
        }
    }

    /// Moves the queued write `id` to the log at `tick` (the table's log is trimmed after);
    /// returns its schema, table and owner, or `nil` when it is not queued. Runs inside a job.
    private static func move(
        _ id: UUID, _ queueIndex: QueueIndex, _ connection: SQLiteConnection, tick: Int64
    ) throws(StoreError) -> (String, String, String?)? {
        guard let sequence = try queueIndex.sequence(of: id, connection) else { return nil }
        let found = try connection.query(
            "SELECT schema_name, table_name, payload, owner FROM queue WHERE seq = ?", .integer(sequence)
        ) { row in (row.text(0) ?? "", row.text(1) ?? "", row.blob(2), row.text(3)) }
        guard let (schema, table, payload, owner) = found.first else { return nil }
        try connection.run("DELETE FROM queue WHERE seq = ?", .integer(sequence))
        try insertReplayed(
            id: id, owner: owner, schema: schema, table: table, payload: payload, tick: tick, connection)
        queueIndex.remove(id)
        return (schema, table, owner)
    }

    /// Logs a write that was sent at once (never queued) as replayed at `tick`.
    nonisolated(nonsending) package func append(_ mutation: Mutation, tick: Int64)
        async throws(StoreError)
    {
        let payload = mutation.persistedData()
        try await store.perform(writes: true, atomic: true) { connection throws(StoreError) in
            let schema = Store.schemaKey(mutation.schema)
            try Self.insertReplayed(
                id: mutation.id, owner: mutation.ownerID, schema: schema, table: mutation.table,
                payload: payload, tick: tick,
                connection)
            try Self.trim(schema: schema, table: mutation.table, connection)
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

    /// Retires a table's replayed writes of `owners` logged at or before `tick` (every list of
    /// their owner's cache has been fetched since). Returns how many were removed.
    @discardableResult
    nonisolated(nonsending) package func retire(
        table: String, schema: String? = nil, through tick: Int64, of owners: WriteOwners = .everyone
    )
        async throws(StoreError) -> Int
    {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try Self.retire(table: table, schema: schema, through: tick, of: owners, connection)
        }
    }

    /// ``retire(table:schema:through:of:)`` inside a job.
    static func retire(
        table: String, schema: String?, through tick: Int64, of owners: WriteOwners,
        _ connection: SQLiteConnection
    ) throws(StoreError) -> Int {
        let sql = "DELETE FROM replay_log WHERE schema_name = ? AND table_name = ? AND tick <= ?"
        let values: [SQLiteValue] = [.text(Store.schemaKey(schema)), .text(table), .integer(tick)]
        switch owners {
        case .everyone: try connection.run(sql, values)
        case .only(let owner): try connection.run(sql + " AND owner IS ?", values + [.optional(owner)])
        }
        return connection.changes
    }

    private static func insertReplayed(
        id: UUID, owner: String?, schema: String, table: String, payload: Data, tick: Int64,
        _ connection: SQLiteConnection
    ) throws(StoreError) {
        try connection.run(
            "INSERT INTO replay_log (id, owner, schema_name, table_name, payload, tick) VALUES (?, ?, ?, ?, ?, ?)",
            .text(Store.idKey(id)), .optional(owner), .text(schema), .text(table), .blob(payload),
            .integer(tick))
    }

    /// Drops a table's oldest replayed writes beyond `limit`. It steps over `limit` index entries,
    /// so a run of writes trims once, after its last.
    private static func trim(schema: String, table: String, _ connection: SQLiteConnection) throws(StoreError)
    {
        try connection.run(
            """
            DELETE FROM replay_log WHERE schema_name = ?1 AND table_name = ?2 AND seq <= (
                SELECT seq FROM replay_log WHERE schema_name = ?1 AND table_name = ?2
                ORDER BY seq DESC LIMIT 1 OFFSET ?3)
            """,
            .text(schema), .text(table), .integer(Int64(limit)))
    }
}
