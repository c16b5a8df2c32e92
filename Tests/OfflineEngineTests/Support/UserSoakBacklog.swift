import Foundation
import Synchronization

/// How many writes of the signed-in user the client says wait in its queue, for a soak's
/// writers to pace themselves by: each waits until the backlog is down to a limit before it
/// writes, as a person would not type faster than the app can send. Without it, eight writers
/// outrun the replay (which sends one write at a time) and soon every write is queued.
///
/// While the network is down the gate is open (writes queue, as they would), and a wait gives
/// up after a while (a replay that never drains is for the soak to report, not to hang on).
final class UserSoakBacklog: Sendable {
    private struct Waiter {
        var id: Int
        var limit: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var count = 0
        var open = false
        var nextID = 0
        var waiters: [Waiter] = []
        var cancelled: Set<Int> = []
        var timeouts = 0

        mutating func ready() -> [CheckedContinuation<Void, Never>] {
            let (count, open) = (count, open)
            let due = waiters.filter { open || $0.limit >= count }
            waiters.removeAll { open || $0.limit >= count }
            return due.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    /// How many waits gave up.
    var timeouts: Int { state.withLock { $0.timeouts } }

    /// The client's latest count.
    func report(_ count: Int) {
        let ready = state.withLock { state in
            state.count = count
            return state.ready()
        }
        for continuation in ready { continuation.resume() }
    }

    /// Opens the gate (the network is down) or closes it again.
    func setOpen(_ open: Bool) {
        let ready = state.withLock { state in
            state.open = open
            return state.ready()
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until at most `limit` writes wait (or the gate is open), giving up after
    /// `seconds` of real time.
    func wait(atMost limit: Int, within seconds: Double) async {
        guard state.withLock({ !$0.open && $0.count > limit }) else { return }
        let timedOut = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await waitUntil(atMost: limit)
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return true
            }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
        if timedOut { state.withLock { $0.timeouts += 1 } }
    }

    private func waitUntil(atMost limit: Int) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil || state.open || state.count <= limit { return true }
                    state.waiters.append(Waiter(id: id, limit: limit, continuation: continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
    }
}
