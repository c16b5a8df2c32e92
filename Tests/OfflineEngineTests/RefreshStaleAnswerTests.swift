import Testing

@testable import OfflineEngine

/// An old answer never replaces a newer write: what the refresh does with a refused answer.
@Suite("Refresh and stale answers")
struct RefreshStaleAnswerTests {
    @Test("an answer that left before the table's last change is refused and asked again at once")
    func refusedIsAskedAgain() async throws {
        let harness = RefreshHarness([.answer(.refused(askAgain: true)), .answer(.applied)])
        harness.start()
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 2)
        #expect(harness.clock.sleepLog.isEmpty, "asked again at once, not after a wait")
        await harness.stop()
    }

    @Test("refused answers are asked again at once three times, then paced by the schedule")
    func refusalsCannotSpin() async throws {
        let harness = RefreshHarness(Array(repeating: .answer(.refused(askAgain: true)), count: 5))
        harness.start()
        try await harness.attempts(4)
        try await harness.elapseWait()
        try await harness.attempts(5)
        try await harness.asleep()
        #expect(harness.clock.sleepLog == [.milliseconds(300), .milliseconds(900)])
        #expect(harness.states.values == [.refreshing], "a refusal is not a failure")
        await harness.stop()
    }

    @Test("an answer that left before clearLocalData() is not asked again; the clear's mark starts anew")
    func clearedAnswerIsNotAskedAgain() async throws {
        let harness = RefreshHarness([.answer(.refused(askAgain: false))])
        harness.start()
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 1, "not asked again")
        #expect(harness.clock.sleeperCount == 0)
        harness.fetch.push(.answer(.applied))
        harness.refresher.markStale(.clear)
        #expect(try await harness.states(4) == [.refreshing, .idle, .refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 2)
        await harness.stop()
    }

    @Test("a clear during an attempt: its refused answer is followed by a new request, with no Idle between")
    func clearDuringAttempt() async throws {
        let harness = RefreshHarness()
        harness.start()
        try await harness.attempts(1)
        harness.refresher.markStale(.clear)
        harness.fetch.push(.answer(.refused(askAgain: false)))
        try await harness.attempts(2)
        #expect(harness.states.values == [.refreshing])
        harness.fetch.push(.answer(.applied))
        #expect(try await harness.states(2) == [.refreshing, .idle])
        await harness.stop()
    }

    @Test("an answer that left before the cache passed to a new owner is not written and asked again")
    func newOwnerIsAskedAgain() async throws {
        let harness = RefreshHarness()
        harness.start()
        try await harness.attempts(1)
        harness.refresher.markStale(.newOwner)
        harness.fetch.push(.answer(.refused(askAgain: true)))
        try await harness.attempts(2)
        harness.fetch.push(.answer(.applied))
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.clock.sleepLog.isEmpty)
        await harness.stop()
    }
}
