extension Store {
    /// A new change tick, larger than every tick handed out before, across restarts too.
    nonisolated(nonsending) package func nextTick() async throws(StoreError) -> Int64 {
        try await perform(writes: true) { connection throws(StoreError) in try Self.nextTick(connection) }
    }

    /// A table's change mark: the tick of its last change, or 0 when it never changed.
    nonisolated(nonsending) package func mark(table: String, schema: String? = nil) async throws(StoreError)
        -> Int64
    {
        try await perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT tick FROM marks WHERE schema_name = ? AND table_name = ?",
                .text(Self.schemaKey(schema)), .text(table)
            ) { row in row.integer(0) }.first ?? 0
        }
    }

    /// Records a change of a table at a new tick and returns that tick.
    nonisolated(nonsending) package func advanceMark(table: String, schema: String? = nil)
        async throws(StoreError)
        -> Int64
    {
        try await perform(writes: true, atomic: true) { connection throws(StoreError) in
            let tick = try Self.nextTick(connection)
            try connection.run(
                "INSERT OR REPLACE INTO marks (schema_name, table_name, tick) VALUES (?, ?, ?)",
                .text(Self.schemaKey(schema)), .text(table), .integer(tick))
            return tick
        }
    }

    static func nextTick(_ connection: SQLiteConnection) throws(StoreError) -> Int64 {
        let ticks = try connection.query(
            """
            INSERT INTO meta (key, value) VALUES ('tick', 1)
            ON CONFLICT (key) DO UPDATE SET value = value + 1 RETURNING value
            """
        ) { row in row.integer(0) }
        guard let tick = ticks.first else { throw .failed(code: 1, detail: "no tick returned") }
        return tick
    }
}
