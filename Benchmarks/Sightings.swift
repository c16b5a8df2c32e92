import Synchronization

/// Which readers have seen which write: readers report the id at the end of their list.
final class Sightings: Sendable {
    private struct State {
        var seen: [Int: Int] = [:]
        var lastSeenAt: [Int: ContinuousClock.Instant] = [:]
        var waiter: (id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)?
    }
    private let state = Mutex(State())

    func saw(_ id: Int, at instant: ContinuousClock.Instant) {
        let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.seen[id, default: 0] += 1
            state.lastSeenAt[id] = instant
            guard let waiter = state.waiter, waiter.id == id, state.seen[id] ?? 0 >= waiter.count else {
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        ready?.resume()
    }

    /// Waits until `count` readers saw `id`; returns when the last of them did.
    func waitUntilSeen(_ id: Int, by count: Int) async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.seen[id] ?? 0 >= count { return true }
                state.waiter = (id, count, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.lastSeenAt[id] ?? .now }
    }
}
