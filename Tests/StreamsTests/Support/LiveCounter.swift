import Synchronization

/// A counter of live iterators that can be awaited until it returns to zero.
final class LiveCounter: Sendable {
    private struct State {
        var count = 0
        var total = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }
    /// How many iterators were ever created.
    var total: Int { state.withLock { $0.total } }

    func increment() {
        state.withLock {
            $0.count += 1
            $0.total += 1
        }
    }

    func decrement() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count <= 0 else {
                return []
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Returns once no iterator is alive (immediately if none is); a count below zero, as a
    /// `Countdown` with more arrivals than its count has, counts as none.
    func waitUntilZero() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.count <= 0 {
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if ready {
                continuation.resume()
            }
        }
    }
}
