/// Thrown by ``within(_:_:)`` when the work has not finished in time.
struct TimedOut: Error {}

/// Runs `body`, failing with ``TimedOut`` after `seconds` of real time: the guard that keeps a
/// wait for an observable result from hanging the run.
func within<T: Sendable>(
    _ seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await ContinuousClock().sleep(for: .seconds(seconds))
            throw TimedOut()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut() }
        return first
    }
}
