/// Change ticks and per-table change marks: a tick grows across restarts, so a later change always has a larger one.
///
/// A view of an open `Store` (`store.marks`); its calls join the store's writer in call order.
package struct MarkTable: Sendable {
    let store: Store

    /// A new change tick, larger than every tick handed out before, across restarts too; read
    /// without a commit (see ``TickCounter``).
    package func nextTick() -> Int64 {
        store.ticks.next()
    }

    /// A table's change mark: the tick of its last change, or 0 when it never changed.
    nonisolated(nonsending) package func mark(table: String, schema: String? = nil) async throws(StoreError)
        -> Int64
    {
        try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT tick FROM marks WHERE schema_name = ? AND table_name = ?",
                .text(Store.schemaKey(schema)), .text(table)
            ) { row in row.integer(0) }.first ?? 0
        }
    }

    /// Records a change of a table at a new tick and returns that tick.
    nonisolated(nonsending) package func advance(table: String, schema: String? = nil)
        async throws(StoreError)
        -> Int64
    {
        // Taken in call order, as the store runs its work.
        let tick = store.ticks.next()
        return try await store.perform(writes: true, atomic: true) { connection throws(StoreError) in
            try Store.storeTick(tick, connection)
            try connection.run(
                "INSERT OR REPLACE INTO marks (schema_name, table_name, tick) VALUES (?, ?, ?)",
                .text(Store.schemaKey(schema)), .text(table), .integer(tick))
            return tick
        }
    }
}
