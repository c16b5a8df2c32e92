import Streams

/// The app's calls under way, so ``close()`` can refuse new ones and let those under way end as
/// they would offline.
final class CallGate: Sendable {
    private struct State: Sendable {
        var underway = 0
        var closed = false
    }

    /// One value changed atomically (`update`), which ``close()`` waits on.
    private let state = StateBroadcast<State, Never>(State())

    /// Whether ``close()`` has begun.
    var isClosed: Bool { state.value.closed }

    /// Runs a call that ``close()`` waits for; refuses to start one after ``close()``.
    func underway<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        var entered = false
        state.update { state in
            guard !state.closed else { return }
            state.underway += 1
            entered = true
        }
        guard entered else { throw ClientError.closed }
        defer { state.update { $0.underway -= 1 } }
        return try await work()
    }

    /// Refuses new calls; `false` when they were refused already.
    func refuseNewCalls() -> Bool {
        var first = false
        state.update { state in
            first = !state.closed
            state.closed = true
        }
        return first
    }

    /// Returns once no call is under way (call after ``refuseNewCalls()``).
    func waitUntilIdle() async {
        for await current in state.values() where current.underway == 0 {
            break
        }
    }
}
