import Testing

@testable import OfflineEngine

/// Cold start, session restore, and the authenticatedSessionOnly rule for empty answers.
@Suite("Refresh and the session", .timeLimit(.minutes(10)))
struct RefreshSessionTests {
    @Test("until the stored session is restored the refresh reads Refreshing and sends nothing")
    func coldStartWaitsForSession() async throws {
        let harness = RefreshHarness.started([.answer(.applied)], restoring: true)
        #expect(try await harness.states(1) == [.refreshing])
        #expect(harness.fetch.attempts.values.isEmpty)
        #expect(harness.clock.sleeperCount == 0, "it waits for the session, not the clock")
        harness.session.settle()
        try await harness.attempts(1)
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.clock.now.offset == .zero, "asked at once when the session settled")
        await harness.stop()
    }

    @Test("a network coming back while the session restores does not send a request")
    func networkBackWhileRestoring() async throws {
        let harness = RefreshHarness.started([.answer(.applied)], restoring: true)
        try await harness.states(1)
        harness.monitor.enableNetwork()
        harness.session.settle()
        try await harness.states(2)
        #expect(harness.fetch.attempts.values.count == 1)
        await harness.stop()
    }

    @Test("authenticatedSessionOnly: an untrusted empty answer stays Refreshing, at most a minute apart")
    func untrustedStaysRefreshing() async throws {
        let harness = RefreshHarness.started(Array(repeating: .answer(.emptyButUntrusted), count: 8))
        try await harness.waitThroughAttempts(8)
        #expect(harness.states.values == [.refreshing], "never Idle, never Stalled")
        #expect(
            harness.clock.sleepLog == [
                .milliseconds(300), .milliseconds(900), .milliseconds(2400), .seconds(5), .seconds(15),
                .seconds(60), .seconds(60), .seconds(60),
            ])
        harness.fetch.push(.answer(.applied))
        #expect(try await harness.states(2) == [.refreshing, .idle], "rows arriving end it")
        await harness.stop()
    }

    @Test("authenticatedSessionOnly: a user signing in ends the wait with an attempt at once")
    func signInEndsUntrustedWait() async throws {
        let harness = RefreshHarness.started(Array(repeating: .answer(.emptyButUntrusted), count: 3))
        try await harness.waitThroughAttempts(2)
        try await harness.asleep()
        let before = harness.clock.now
        harness.fetch.push(.answer(.applied))
        harness.session.settle()
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.clock.now == before, "no wait elapsed")
        await harness.stop()
    }
}
