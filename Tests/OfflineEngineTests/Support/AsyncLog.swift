import Synchronization

/// An append-only log a test can await: `values(atLeast:)` returns once it holds that many.
final class AsyncLog<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var nextID = 0
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var cancelled: Set<Int> = []
    }
    private let state = Mutex(State())

    var values: [Value] { state.withLock { $0.values } }

    func append(_ value: Value) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.values.append(value)
            let due = state.waiters.filter { $0.value.count <= state.values.count }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until the log holds at least `count` values; returns them. Throws
    /// `CancellationError` when cancelled first: a caller waiting in a loop (for a value that
    /// never comes, under a timeout) stops instead of spinning on a wait that returns at once.
    func values(atLeast count: Int) async throws -> [Value] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil || state.values.count >= count { return true }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
        let held = values
        if held.count < count { try Task.checkCancellation() }
        return held
    }
}
