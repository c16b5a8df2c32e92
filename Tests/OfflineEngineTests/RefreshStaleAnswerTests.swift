import Testing

@testable import OfflineEngine

/// An old answer never replaces a newer write: what the refresh does with a refused answer.
@Suite("Refresh and stale answers", .timeLimit(.minutes(10)))
struct RefreshStaleAnswerTests {
    @Test("an answer that left before the table's last change is refused and asked again at once")
    func refusedIsAskedAgain() async throws {
        let harness = RefreshHarness.started([.answer(.refused(askAgain: true)), .answer(.applied)])
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 2)
        #expect(harness.clock.sleepLog.isEmpty, "asked again at once, not after a wait")
        await harness.stop()
    }

    @Test("refused answers are asked again at once three times, then paced by the schedule")
    func refusalsCannotSpin() async throws {
        let harness = RefreshHarness.started(Array(repeating: .answer(.refused(askAgain: true)), count: 5))
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
        let harness = RefreshHarness.started([.answer(.refused(askAgain: false))])
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 1, "not asked again")
        #expect(harness.clock.sleeperCount == 0)
        harness.fetch.push(.answer(.applied))
        harness.refresher.markStale()
        #expect(try await harness.states(4) == [.refreshing, .idle, .refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 2)
        await harness.stop()
    }

    /// A change of the cache during an attempt, whose answer is then refused, and the rule it
    /// follows.
    enum ChangeDuringAttempt: CaseIterable, CustomTestStringConvertible {
        case clear
        case newOwner

        var testDescription: String {
            switch self {
            case .clear:
                "a clear during an attempt: its refused answer is followed by a new request, with no Idle between"
            case .newOwner:
                "an answer that left before the cache passed to a new owner is not written and asked again"
            }
        }

        /// What the answer's refusal says (a clear's answer is refused without asking again).
        var askAgain: Bool { self == .newOwner }
    }

    @Test("a change of the cache during an attempt", arguments: ChangeDuringAttempt.allCases)
    func changeDuringAttempt(_ change: ChangeDuringAttempt) async throws {
        let harness = try await RefreshHarness.inFirstAttempt()
        harness.refresher.markStale()
        harness.fetch.push(.answer(.refused(askAgain: change.askAgain)))
        try await harness.attempts(2)
        #expect(harness.states.values == [.refreshing])
        harness.fetch.push(.answer(.applied))
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.clock.sleepLog.isEmpty)
        await harness.stop()
    }
}
