import Synchronization

/// Raised by `withTimeout` when the body did not finish in time.
struct TimeoutError: Error {}

/// Runs `body`, failing with `TimeoutError` instead of hanging when it takes longer than `seconds`.
///
/// On timeout the body's task is cancelled but not awaited, so even a body that ignores
/// cancellation makes the test fail rather than hang.
func withTimeout<T: Sendable>(
    seconds: Double = 30,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = TimeoutRace<T>()
    return try await withCheckedThrowingContinuation { continuation in
        race.start(continuation)
        let work = Task {
            do {
                race.finish(.success(try await body()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            work.cancel()
            race.finish(.failure(TimeoutError()))
        }
        race.onFinish { timer.cancel() }
    }
}

/// Delivers whichever of the body's result and the timeout comes first, exactly once.
private final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state -> Bool in
            guard state.result == nil else {
                return true
            }
            state.cleanup = cleanup
            return false
        }
        if finished {
            cleanup()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock { state in
            guard state.result == nil else {
                return (CheckedContinuation<T, any Error>?.none, (@Sendable () -> Void)?.none)
            }
            state.result = result
            defer {
                state.continuation = nil
                state.cleanup = nil
            }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}
