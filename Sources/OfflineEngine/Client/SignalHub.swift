import Synchronization

/// A many-reader "something happened" signal (the session settled, a write was queued): each
/// reader gets its own `AsyncStream` that holds at most one pending signal, so a slow reader
/// sees that it was signalled, never a backlog.
final class SignalHub: Sendable {
    private let readers = Mutex([UInt64: AsyncStream<Void>.Continuation]())
    private let nextID = Mutex<UInt64>(0)

    /// A new reader's stream; it ends when the hub finishes or the reader stops iterating.
    func stream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        readers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.readers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Signals every reader.
    func fire() {
        for continuation in readers.withLock({ Array($0.values) }) {
            continuation.yield()
        }
    }

    /// Ends every reader's stream.
    func finish() {
        for continuation in readers.withLock({ Array($0.values) }) {
            continuation.finish()
        }
    }
}
