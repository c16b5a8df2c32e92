import Synchronization

/// A change Observation reported, awaited once (or until the waiting task is cancelled): the
/// `onChange` of `withObservationTracking` fires it, and a loop that reads a model as a view
/// does waits on it before reading again.
///
/// ```swift
/// let changed = ChangeSignal()
/// withObservationTracking { _ = model.rows } onChange: { changed.fire() }
/// await changed.wait()
/// ```
public final class ChangeSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A signal not fired yet.
    public init() {}

    /// Fires the signal: its waiter, if any, resumes, and a later wait returns at once.
    public func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once the signal has fired, or the calling task is cancelled.
    public func wait() async {
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
