import Observation
import Synchronization

/// Runs `done` now and again after each change of the observable values it read, as a view
/// renders again after a change, until it returns `true` or the task is cancelled.
@MainActor
func observe(until done: @MainActor () -> Bool) async {
    while !Task.isCancelled {
        let changed = ChangeSignal()
        let finished = withObservationTracking {
            done()
        } onChange: {
            changed.fire()
        }
        if finished { return }
        await changed.wait()
    }
}

/// Runs `body` now and after each change of what it read, until the task is cancelled.
@MainActor
func observeChanges(_ body: @MainActor () -> Void) async {
    await observe {
        body()
        return false
    }
}

/// A change Observation reported, awaited once (or until the waiting task is cancelled).
private final class ChangeSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.fired { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}
