/// An append-only log a test can await: `values(atLeast:)` returns once it holds that many.
final class AsyncLog<Value: Sendable>: Sendable {
    private let log = WaitableState<[Value]>([])

    var values: [Value] { log.value }

    func append(_ value: Value) {
        log.update { $0.append(value) }
    }

    /// Waits until the log holds at least `count` values; returns them. Throws
    /// `CancellationError` when cancelled first: a caller waiting in a loop (for a value that
    /// never comes, under a timeout) stops instead of spinning on a wait that returns at once.
    func values(atLeast count: Int) async throws -> [Value] {
        let held = await log.wait { $0.count >= count }
        if held.count < count { try Task.checkCancellation() }
        return held
    }
}
