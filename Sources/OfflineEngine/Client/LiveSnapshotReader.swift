import Streams
import Synchronization

/// One app-facing reader of a live read, behind the stream `snapshots()` returns.
///
/// It joins the live read as soon as the app asks for the stream (so the cached rows are loaded
/// and the refresh starts then, not at the first `next()`), and the app's task then reads the
/// shared snapshots itself: no task in between forwards them, so a snapshot costs one wake per
/// reader. It leaves the live read when its snapshots end or the stream is dropped.
final class LiveSnapshotReader: Sendable {
    private enum Joining: Sendable {
        case waiting
        case joined
        case failed(any Error)
    }

    private let engine: Engine
    private let key: String
    private let joining = StateBroadcast<Joining, Never>(.waiting)
    /// The reader of the shared snapshots: set once joined, taken out by each `next()`.
    private let iterator = Mutex<LiveReads.Snapshots.AsyncIterator?>(nil)
    /// Whether this reader joined and has not left yet (to note its list read once, on leaving).
    private let holding = Atomic<Bool>(false)

    /// A reader of the live read of `query`; it joins at once, as background work of the client.
    init(engine: Engine, query: QueryDescription) {
        self.engine = engine
        key = query.canonicalKey
        let started = engine.background.run { [weak self] in
            do {
                let reader = try await engine.attach(query)
                guard let self else {
                    engine.readerLeft(query.canonicalKey)
                    return
                }
                reader.start()
                holding.store(true, ordering: .sequentiallyConsistent)
                iterator.withLock { $0 = reader }
                joining.send(.joined)
            } catch {
                self?.joining.send(.failed(error))
            }
        }
        if !started { joining.send(.failed(ClientError.closed)) }
    }

    /// The next snapshot, or `nil` once the live read ended (the client closed) or the task was
    /// cancelled; throws when the live read could not be joined.
    func next() async throws -> QuerySnapshot? {
        // Only the first call waits for the join; later ones go straight to the shared reader.
        var state = joining.value
        if case .waiting = state {
            for await next in joining.values() {
                state = next
                if case .waiting = next { continue }
                break
            }
        }
        if case .failed(let error) = state { throw error }
        guard !Task.isCancelled, var reader = iterator.withLock({ $0.take() }) else {
            leave()
            return nil
        }
        guard let snapshot = await reader.next() else {
            leave()
            return nil
        }
        iterator.withLock { $0 = reader }
        return snapshot
    }

    /// Leaves the live read, once.
    private func leave() {
        iterator.withLock { $0 = nil }
        if holding.exchange(false, ordering: .sequentiallyConsistent) {
            engine.readerLeft(key)
        }
    }

    deinit {
        if holding.load(ordering: .sequentiallyConsistent) { engine.readerLeft(key) }
    }
}
