import Synchronization

/// Wakes one waiting reader once: the first `fire()` after `wait()` began resumes it, and a
/// `fire()` that comes before the wait is kept, so the wait returns at once. Several holders
/// may fire one waker; only one wake is delivered per wait.
@usableFromInline
final class StateWaker: Sendable {
    private enum State {
        case idle
        case waiting(UnsafeContinuation<Void, Never>)
        case fired
    }

    private let state = Mutex(State.idle)

    /// Resumes the waiting reader, or keeps the wake for its next `wait()`.
    @usableFromInline
    func fire() {
        let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            switch state {
            case .idle:
                state = .fired
                return nil
            case .waiting(let continuation):
                state = .idle
                return continuation
            case .fired:
                return nil
            }
        }
        waiting?.resume()
    }

    /// Waits for a `fire()`; `arm` runs once the wait is registered (it may fire at once).
    @usableFromInline
    func wait(isolation actor: isolated (any Actor)? = #isolation, then arm: () -> Void) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    switch state {
                    case .fired:
                        state = .idle
                        return true
                    case .idle:
                        state = .waiting(continuation)
                        return false
                    case .waiting:
                        preconditionFailure("StateWaker: two waits at once")
                    }
                }
                if resumeNow {
                    continuation.resume()
                } else {
                    arm()
                }
            }
        } onCancel: {
            fire()
        }
    }
}
