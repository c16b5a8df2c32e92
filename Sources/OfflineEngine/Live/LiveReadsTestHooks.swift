/// What tests read of the live reads (package access; the library never calls these): how many
/// readers a read has, and its newest snapshot.
extension LiveReads {
    /// How many readers the live read of `key` has (its share's).
    func readers(of key: String) -> Int {
        state.withLock { $0.entries[key]?.snapshots.readerCount ?? 0 }
    }

    /// The newest snapshot of the live read of `key` while it is being read, or `nil`.
    func latest(of key: String) async -> QuerySnapshot? {
        guard let snapshots = state.withLock({ $0.entries[key]?.snapshots }), snapshots.isRunning else {
            return nil
        }
        var reader = snapshots.makeAsyncIterator()
        return await reader.next()
    }
}
