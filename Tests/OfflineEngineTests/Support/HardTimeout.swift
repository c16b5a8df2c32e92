import Foundation
import Synchronization

/// Thrown by ``withHardTimeout(_:_:)`` when the work has not finished in time.
struct HardTimeout: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { "did not finish within \(seconds) s of real time" }
}

/// Runs `body` and returns its result, or throws ``HardTimeout`` after `seconds` of real time,
/// without waiting for `body` to end. Unlike `withTimeout` (whose task group must wait for its
/// children), this fails even when `body` is stuck where cancellation cannot reach it, such as
/// a continuation the engine never resumes; `body` is cancelled and left to end on its own.
func withHardTimeout<T: Sendable>(
    _ seconds: Double, _ body: @escaping @Sendable () async throws -> T
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
        let alarm = Task {
            try? await Task.sleep(for: .seconds(seconds))
            finish(.failure(HardTimeout(seconds: seconds)))
        }
        tasks.withLock { $0 = [work, alarm] }
    }
}
