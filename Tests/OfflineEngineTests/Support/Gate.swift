import Synchronization

@testable import OfflineEngine

/// A one-shot gate: requests wait at it until the test opens it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// How many tasks wait at the gate now.
    let arrivals = AsyncLog<Int>()

    func wait() async {
        let mustWait = state.withLock { state in !state.open }
        guard mustWait else { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            arrivals.append(1)
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
