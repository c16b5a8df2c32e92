import Synchronization

/// Thrown by ``withTimeout(_:_:)`` when the work has not finished in time.
public struct TimedOut: Error, CustomStringConvertible {
    /// The limit, in seconds of real time.
    public var seconds: Double
    public var description: String { "did not finish within \(seconds) s of real time" }

    /// The error for a limit of `seconds`.
    public init(seconds: Double) { self.seconds = seconds }
}

/// Runs `body` and returns its result, or throws ``TimedOut`` after `seconds` of real time (times
/// ``realTimeScale``, 10 under ThreadSanitizer): the guard that keeps a test's wait for an
/// observable result from hanging the run.
///
/// ```swift
/// let snapshot = try await withTimeout(5) { try await firstSnapshot(of: list) }
/// ```
///
/// It does not wait for `body` to end: a body stuck where cancellation cannot reach it (a
/// continuation the code under test never resumes) still fails the test instead of hanging
/// it, so the work runs in a task of its own that is cancelled and left to end on its own. A
/// passing test never waits for the limit.
public func withTimeout<T: Sendable>(
    _ seconds: Double = 30, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let slot = Mutex<CheckedContinuation<T, any Error>?>(nil)
    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
        slot.withLock { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }
    let tasks = Mutex<[Task<Void, Never>]>([])
    defer { for task in tasks.withLock({ $0 }) { task.cancel() } }
    return try await withCheckedThrowingContinuation { continuation in
        // The continuation is in place before either task can finish.
        slot.withLock { $0 = continuation }
        let work = Task {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
        }
        let limit = seconds * realTimeScale
        let alarm = Task {
            try? await Task.sleep(for: .seconds(limit))
            finish(.failure(TimedOut(seconds: limit)))
        }
        tasks.withLock { $0 = [work, alarm] }
    }
}
