import Testing

/// Runs each test of a suite, and the tasks it starts in groups, on ``GrowingThreadExecutor``'s
/// threads instead of the cooperative pool. The end-to-end tests block in libpq (a query, a
/// slot, the server's first start under a lock, a whole differential run); on the pool, two of
/// them held both threads of a two-core machine, and every other test in the process stood
/// still behind them until its own timeout fired (six Streams tests at once, in a CI run).
struct OffCooperativePool: SuiteTrait, TestTrait, TestScoping {

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(GrowingThreadExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffCooperativePool {
    /// Runs the tests on threads of their own, never holding the cooperative pool in a block.
    static var offCooperativePool: Self { OffCooperativePool() }
}
