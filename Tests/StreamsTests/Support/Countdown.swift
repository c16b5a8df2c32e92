import Synchronization

/// Lets tasks wait until a number of participants have arrived.
final class Countdown: Sendable {
    private let state: Mutex<(remaining: Int, waiters: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) {
        state = Mutex((count, []))
    }

    func arrive() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.remaining -= 1
            guard state.remaining == 0 else {
                return []
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.remaining <= 0 {
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
