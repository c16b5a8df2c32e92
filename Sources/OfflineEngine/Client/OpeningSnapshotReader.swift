import Synchronization

/// The reader behind a `snapshots()` stream asked for before the store opened: its first
/// `next()` waits for the open, then joins the live read as a ``LiveSnapshotReader`` that every
/// later `next()` reads.
final class OpeningSnapshotReader: Sendable {
    private let opening: ClientOpening
    private let query: QueryDescription
    /// The live read's reader, once the store opened and the first `next()` joined it.
    private let reader = Mutex<LiveSnapshotReader?>(nil)

    init(opening: ClientOpening, query: QueryDescription) {
        self.opening = opening
        self.query = query
    }

    /// The next snapshot; the first waits for the store to open and throws its ``StoreError``
    /// when it cannot. `nil` when the task is cancelled while it waits, as a live reader ends.
    func next() async throws -> QuerySnapshot? {
        if let joined = reader.withLock({ $0 }) { return try await joined.next() }
        let engine: Engine
        do {
            engine = try await opening.engine()
        } catch is CancellationError {
            return nil
        }
        guard !engine.calls.isClosed else { throw ClientError.closed }
        let joined = reader.withLock { reader in
            if let reader { return reader }
            let made = LiveSnapshotReader(engine: engine, query: query)
            reader = made
            return made
        }
        return try await joined.next()
    }
}
