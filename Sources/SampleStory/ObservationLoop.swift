import Observation
import OfflineEngineTesting

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
