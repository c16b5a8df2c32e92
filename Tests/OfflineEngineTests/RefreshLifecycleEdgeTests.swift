import Testing

@testable import OfflineEngine

/// One test per edge of the reference's state diagram, each driven through a Refresher on a
/// manual clock.
@Suite("Refresh lifecycle: the diagram's edges", .timeLimit(.minutes(10)))
struct RefreshLifecycleEdgeTests {
    private let a = TestFailure(name: "a")
    private let b = TestFailure(name: "b")
    private let c = TestFailure(name: "c")
    private let d = TestFailure(name: "d")

    /// Fails four times (Stalled by d), leaving the fifth attempt's wait pending.
    private func stall(_ harness: RefreshHarness) async throws {
        for attempt in 1...3 {
            try await harness.attempts(attempt)
            try await harness.elapseWait()
        }
        try await harness.states(2)
    }

    @Test("[*] -> Refreshing: a live read starts Refreshing and asks at once")
    func startToRefreshing() async throws {
        let harness = try await RefreshHarness.inFirstAttempt()
        #expect(harness.states.values == [.refreshing])
        #expect(harness.clock.sleepLog.isEmpty)
        await harness.stop()
    }

    @Test("Refreshing -> Idle: the server answers")
    func refreshingToIdle() async throws {
        let harness = RefreshHarness.started([.answer(.applied)])
        #expect(try await harness.states(2) == [.refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 1)
        await harness.stop()
    }

    @Test("Refreshing -> Stalled: the fourth failure in a row, about 3.6 s in")
    func refreshingToStalled() async throws {
        let harness = RefreshHarness.started([.fail(a), .fail(b), .fail(c), .fail(d)])
        for attempt in 1...3 {
            try await harness.attempts(attempt)
            try await harness.asleep()
            #expect(harness.states.values == [.refreshing], "still Refreshing after failure \(attempt)")
            harness.clock.advance(by: harness.clock.sleepLog[attempt - 1])
        }
        let states = try await harness.states(2)
        #expect(states.count == 2)
        #expect(states.last?.cause?.underlying as? TestFailure == d)
        #expect(harness.clock.now.offset == .milliseconds(3600))
        await harness.stop()
    }

    @Test("Refreshing -> Paused: it fails while the network is known down")
    func refreshingToPaused() async throws {
        let harness = try await RefreshHarness.inFirstAttempt()
        harness.monitor.setAppAvailability(false)
        harness.fetch.push(.fail(a))
        #expect(try await harness.states(2) == [.refreshing, .paused])
        #expect(harness.clock.sleeperCount == 0, "Paused waits for the network, not the clock")
        await harness.stop()
    }

    @Test("Refreshing -> Paused without a request when the network is known down before the attempt")
    func offlineAttemptPausesWithoutSending() async throws {
        let harness = RefreshHarness()
        harness.monitor.disableNetwork()
        harness.start()
        #expect(try await harness.states(2) == [.refreshing, .paused])
        #expect(harness.fetch.attempts.values.isEmpty)
        await harness.stop()
    }

    @Test("Paused -> Refreshing: the network comes back, with an attempt at once")
    func pausedToRefreshing() async throws {
        let harness = RefreshHarness([.fail(a), .answer(.applied)])
        harness.monitor.setAppAvailability(true)
        harness.start()
        try await harness.attempts(1)
        try await harness.asleep()
        harness.monitor.setAppAvailability(false)
        harness.clock.advance(by: .milliseconds(300))
        try await harness.states(2)
        #expect(harness.states.values == [.refreshing, .paused])
        harness.monitor.setAppAvailability(true)
        #expect(try await harness.states(4) == [.refreshing, .paused, .refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 2, "only the first attempt and the one after")
        #expect(harness.clock.sleepLog == [.milliseconds(300)])
        await harness.stop()
    }

    @Test("Stalled -> Idle: a later attempt succeeds")
    func stalledToIdle() async throws {
        let harness = RefreshHarness.started([.fail(a), .fail(b), .fail(c), .fail(d), .answer(.applied)])
        try await stall(harness)
        try await harness.elapseWait()
        let states = try await harness.states(3)
        #expect(states.first == .refreshing)
        #expect(states[1].cause?.underlying as? TestFailure == d)
        #expect(states.last == .idle)
        #expect(states.count == 3)
        await harness.stop()
    }

    @Test("Stalled -> Paused: it fails while the network is known down")
    func stalledToPaused() async throws {
        let harness = RefreshHarness.started([.fail(a), .fail(b), .fail(c), .fail(d)])
        try await stall(harness)
        try await harness.elapseWait()
        try await harness.attempts(5)
        harness.monitor.setAppAvailability(false)
        harness.fetch.push(.fail(a))
        let states = try await harness.states(3)
        #expect(states.count == 3)
        #expect(states[1].cause != nil)
        #expect(states.last == .paused)
        await harness.stop()
    }

    @Test("Idle -> Refreshing: a clear, a new owner, or a write marks the rows stale")
    func idleToRefreshing() async throws {
        let harness = RefreshHarness.started([.answer(.applied), .answer(.applied)])
        try await harness.states(2)
        harness.refresher.markStale()
        #expect(try await harness.states(4) == [.refreshing, .idle, .refreshing, .idle])
        #expect(harness.fetch.attempts.values.count == 2)
        await harness.stop()
    }
}
