import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Cancelling the task that runs a refresh stops it cleanly: no sleeper, no attempt left behind.
@Suite("Refresh cancellation", .timeLimit(.minutes(10)))
struct RefreshCancellationTests {
    @Test("cancelling during a retry wait leaves no sleeper on the clock")
    func cancelDuringWait() async throws {
        let harness = RefreshHarness.started([.fail(TestFailure(name: "a"))])
        try await harness.asleep()
        #expect(harness.clock.sleeperCount == 1)
        try await withTimeout { await harness.stop() }
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test("stop() ends a running refresh without cancelling its task: its wait ends and it returns")
    func stopEndsTheRun() async throws {
        let harness = RefreshHarness.started([.fail(TestFailure(name: "a"))])
        try await harness.asleep()
        harness.refresher.stop()
        try await withTimeout { await harness.returned() }
        #expect(harness.clock.sleeperCount == 0)
        await harness.stop()
    }

    @Test("cancelling during an attempt cancels the attempt and returns")
    func cancelDuringAttempt() async throws {
        let harness = try await RefreshHarness.inFirstAttempt()
        try await withTimeout { await harness.stop() }
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.states.values == [.refreshing], "a cancelled attempt is not a failure")
    }

    @Test("cancelling while waiting for the session or the network returns")
    func cancelWhileWaitingForSignals() async throws {
        let restoring = RefreshHarness.started(restoring: true)
        try await restoring.states(1)
        try await withTimeout { await restoring.stop() }

        let paused = RefreshHarness()
        paused.monitor.disableNetwork()
        paused.start()
        try await paused.states(2)
        try await withTimeout { await paused.stop() }
        #expect(paused.clock.sleeperCount == 0)
    }

    @Test("a refresher runs once: a second run returns at once")
    func runsOnce() async throws {
        let harness = try await RefreshHarness.inFirstAttempt()
        try await withTimeout { await harness.refresher.run() }
        await harness.stop()
        #expect(harness.fetch.attempts.values.count == 1)
    }
}
