import Synchronization

/// A session that can be restoring and can settle (restore finished, or a user signed in).
final class ScriptedSession: Sendable {
    private struct State {
        var restoring: Bool
        var readers: [AsyncStream<Void>.Continuation] = []
    }
    private let state: Mutex<State>

    init(restoring: Bool = false) {
        state = Mutex(State(restoring: restoring))
    }

    var restoring: Bool { state.withLock { $0.restoring } }

    func settled() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        state.withLock { $0.readers.append(continuation) }
        return stream
    }

    /// The stored session finished restoring, or a user signed in.
    func settle() {
        state.withLock { state in
            state.restoring = false
            for reader in state.readers { reader.yield() }
        }
    }
}
