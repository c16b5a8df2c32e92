extension ListTable {
    /// Saves an answer's list and, in the same transaction, retires the replayed writes of
    /// `owners` its table logged through `tick` (`nil`: none): one commit for an answer and the
    /// retirements it causes, so that a failed commit keeps neither and the engine shows neither.
    nonisolated(nonsending) package func save(
        _ list: StoredList, retiringThrough tick: Int64?, of owners: WriteOwners
    ) async throws(StoreError) {
        let encoded = Self.encoded([list])
        try await store.perform(writes: true, atomic: true) { [store, user] connection throws(StoreError) in
            try Self.write(encoded, user: user, store: store, connection)
            if let tick {
                _ = try ReplayLogTable.retire(
                    table: list.table, schema: list.schema, through: tick, of: owners, connection)
            }
        }
    }
}
