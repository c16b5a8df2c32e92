import Synchronization

/// A value behind a lock that tasks can wait on until a condition of it holds: each change
/// resumes only the waiters whose condition it met, so a waiter costs nothing while it waits
/// (unlike a reader of every change). The one waiting mechanism of ``AsyncLog`` and
/// ``UserSoakBacklog``.
final class WaitableState<Value: Sendable>: Sendable {
    private struct Waiter {
        var condition: @Sendable (Value) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var value: Value
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
        /// Waits cancelled before they were registered.
        var cancelled: Set<Int> = []
    }

    private let state: Mutex<State>

    init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    /// The value now.
    var value: Value { state.withLock { $0.value } }

    /// Changes the value and resumes the waiters whose condition now holds.
    func update(_ change: (inout Value) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            change(&state.value)
            let value = state.value
            let due = state.waiters.filter { $0.value.condition(value) }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `condition` holds of the value (at once if it holds now), or once the calling
    /// task is cancelled, then with the value as it stands.
    @discardableResult
    func wait(until condition: @escaping @Sendable (Value) -> Bool) async -> Value {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil || condition(state.value) { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
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
        return value
    }
}
