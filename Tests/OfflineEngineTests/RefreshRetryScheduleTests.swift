import Testing

@testable import OfflineEngine

/// The retry schedule, the fourth-failure rule, the cause rule and the waits cut short.
@Suite("Refresh retry schedule", .timeLimit(.minutes(10)))
struct RefreshRetryScheduleTests {
    private let failures = (1...8).map { TestFailure(name: "failure \($0)") }

    @Test("the schedule is 300 ms, 900 ms, 2.4 s, 5 s, 15 s, then every 60 s")
    func pureSchedule() {
        let delays = (1...8).map { RetrySchedule.standard.delay(afterFailure: $0) }
        #expect(
            delays == [
                .milliseconds(300), .milliseconds(900), .milliseconds(2400), .seconds(5), .seconds(15),
                .seconds(60), .seconds(60), .seconds(60),
            ])
        #expect(RetrySchedule.standard.delay(afterFailure: 0) == .zero)
    }

    @Test("a failing refresh sleeps 300 ms, 900 ms, 2.4 s, 5 s, 15 s, 60 s, 60 s on the clock")
    func scheduleOnTheClock() async throws {
        let harness = RefreshHarness.started(failures.prefix(7).map { .fail($0) })
        try await harness.waitThroughAttempts(7)
        #expect(
            harness.clock.sleepLog == [
                .milliseconds(300), .milliseconds(900), .milliseconds(2400), .seconds(5), .seconds(15),
                .seconds(60), .seconds(60),
            ])
        await harness.stop()
    }

    @Test("it reads Stalled only at the fourth failure in a row, not the third")
    func fourthFailureStalls() async throws {
        let harness = RefreshHarness.started(failures.prefix(3).map { .fail($0) })
        try await harness.waitThroughAttempts(3)
        #expect(harness.states.values == [.refreshing], "three failures are not a stall")
        harness.fetch.push(.fail(failures[3]))
        let states = try await harness.states(2)
        #expect(states.last?.cause?.underlying as? TestFailure == failures[3])
        await harness.stop()
    }

    @Test("an answer between failures ends the row: four failures not in a row do not stall")
    func answerEndsTheRow() async throws {
        let script: [ScriptedAttempt] = [
            .fail(failures[0]), .fail(failures[1]), .answer(.refused(askAgain: true)),
            .fail(failures[2]), .fail(failures[3]),
        ]
        let harness = try await RefreshHarness.inFirstAttempt(script)
        try await harness.elapseWait()
        try await harness.attempts(2)
        try await harness.elapseWait()
        try await harness.attempts(4)
        try await harness.elapseWait()
        try await harness.attempts(5)
        try await harness.asleep()
        #expect(harness.states.values == [.refreshing])
        #expect(
            harness.clock.sleepLog == [
                .milliseconds(300), .milliseconds(900), .milliseconds(300), .milliseconds(900),
            ])
        await harness.stop()
    }

    @Test("Stalled.cause is the failure that stalled it; later, different failures do not replace it")
    func causeIsKept() async throws {
        let harness = RefreshHarness.started(failures.prefix(6).map { .fail($0) })
        try await harness.waitThroughAttempts(6)
        let states = harness.states.values
        #expect(states.count == 2, "one Stalled, not one per failure: \(states)")
        #expect(states.last?.cause?.underlying as? TestFailure == failures[3])
        #expect(harness.refresher.state == states.last)
        await harness.stop()
    }

    @Test("a Stalled refresh is still tried, at most a minute apart")
    func stalledIsRetriedAtMostAMinuteApart() async throws {
        let harness = RefreshHarness.started(failures.map { .fail($0) })
        try await harness.waitThroughAttempts(8)
        #expect(harness.clock.sleepLog.allSatisfy { $0 <= .seconds(60) })
        #expect(harness.states.values.count == 2)
        await harness.stop()
    }

    @Test("a Stalled refresh's minute-long wait is cut short when the network comes back")
    func stalledWaitCutShort() async throws {
        let harness = RefreshHarness.started(failures.prefix(6).map { .fail($0) })
        try await harness.waitThroughAttempts(5)
        try await harness.asleep()
        #expect(harness.clock.sleepLog.last == .seconds(60))
        harness.monitor.enableNetwork()
        try await harness.attempts(7)
        harness.fetch.push(.answer(.applied))
        #expect(try await harness.states(3).last == .idle)
        await harness.stop()
    }

    /// What ends a retry's wait at once.
    enum WaitCut: String, CaseIterable, CustomTestStringConvertible {
        case networkAvailabilityOnline = "the network availability turns online"
        case systemPathOnline = "the connectivity monitor (the system's network path) turns online"
        case enableNetwork = "enableNetwork() is called"
        case sessionRestored = "the session settles: a stored session finishes restoring"
        case signIn = "the session settles: a user signs in"

        var testDescription: String { rawValue }

        func apply(to harness: RefreshHarness) {
            switch self {
            case .networkAvailabilityOnline: harness.monitor.setAppAvailability(true)
            case .systemPathOnline: harness.monitor.setSystemPath(.online)
            case .enableNetwork: harness.monitor.enableNetwork()
            case .sessionRestored, .signIn: harness.session.settle()
            }
        }
    }

    @Test("the wait is cut short with an attempt at once when", arguments: WaitCut.allCases)
    func waitCutShort(_ cut: WaitCut) async throws {
        let harness = try await RefreshHarness.inFirstAttempt([.fail(failures[0])])
        try await harness.asleep()
        cut.apply(to: harness)
        try await harness.attempts(2)
        #expect(harness.clock.now.offset == .zero, "\(cut): no time passed")
        #expect(harness.clock.sleeperCount == 0, "the cut-short wait left no sleeper")
        await harness.stop()
    }

    @Test("the network coming back during an attempt that then fails means the next one goes at once")
    func networkBackDuringAttempt() async throws {
        let harness = try await RefreshHarness.inFirstAttempt()
        harness.monitor.setAppAvailability(true)
        harness.fetch.push(.fail(failures[0]))
        // Whether the event is seen before or after the failure, the next attempt needs no time.
        try await harness.attempts(2)
        #expect(harness.clock.now.offset == .zero)
        await harness.stop()
    }
}
