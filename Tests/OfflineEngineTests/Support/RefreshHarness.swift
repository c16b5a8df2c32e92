import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// A Refresher on a ManualClock with a scripted fetch, a real ConnectivityMonitor and a scripted
/// session; records every state it reports.
final class RefreshHarness: Sendable {
    let clock: ManualClock
    let monitor: ConnectivityMonitor
    let session: ScriptedSession
    let fetch: ScriptedFetch
    let states: AsyncLog<RefreshState>
    let refresher: Refresher
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Copies the refresher's reports into `states`; ends when the refresher finishes.
    private let logging: Task<Void, any Error>

    init(
        _ script: [ScriptedAttempt] = [],
        restoring: Bool = false,
        summarize: @escaping @Sendable (any Error) -> String? = { _ in nil }
    ) {
        let session = ScriptedSession(restoring: restoring)
        let fetch = ScriptedFetch(script)
        let states = AsyncLog<RefreshState>()
        let clock = ManualClock()
        let monitor = ConnectivityMonitor()
        let environment = RefreshEnvironment(
            clock: clock,
            connectivity: monitor,
            sessionRestoring: { session.restoring },
            sessionSettled: { session.settled() },
            summarize: summarize
        )
        self.clock = clock
        self.monitor = monitor
        self.states = states
        self.session = session
        self.fetch = fetch
        let refresher = Refresher(environment: environment) { FetchAnswer(try await fetch()) }
        self.refresher = refresher
        // Subscribed now, before the refresh can report anything.
        let reports = refresher.reports()
        logging = Task {
            // The harness logs changes of state; a report after an attempt that left the state as
            // it was is not one.
            for try await report in reports where states.values.last != report.state {
                states.append(report.state)
            }
        }
    }

    /// A harness whose refresh runs already.
    static func started(_ script: [ScriptedAttempt] = [], restoring: Bool = false) -> RefreshHarness {
        let harness = RefreshHarness(script, restoring: restoring)
        harness.start()
        return harness
    }

    /// A harness whose refresh runs and has started its first attempt.
    static func inFirstAttempt(_ script: [ScriptedAttempt] = []) async throws -> RefreshHarness {
        let harness = started(script)
        try await harness.attempts(1)
        return harness
    }

    func start() {
        let refresher = refresher
        task.withLock { $0 = Task { await refresher.run() } }
    }

    /// Waits until the refresh's run returns on its own, without cancelling it.
    func returned() async {
        await task.withLock { $0 }?.value
    }

    /// Cancels the refresh and waits until its loop has returned and its reports are logged.
    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
        refresher.finish()
        _ = try? await logging.value
    }

    /// Waits (with a timeout) until `count` attempts have started.
    func attempts(_ count: Int) async throws {
        let fetch = fetch
        _ = try await withTimeout { try await fetch.attempts.values(atLeast: count) }
    }

    /// Waits (with a timeout) until `count` states have been reported; returns them.
    @discardableResult
    func states(_ count: Int) async throws -> [RefreshState] {
        let states = states
        return try await withTimeout { try await states.values(atLeast: count) }
    }

    /// Waits (with a timeout) until the refresh sleeps on the clock.
    func asleep() async throws {
        let clock = clock
        try await withTimeout { await clock.sleepers(atLeast: 1) }
    }

    /// Waits until asleep, then moves the clock by exactly the wait it asked for.
    func elapseWait() async throws {
        try await asleep()
        let wait = clock.sleepLog.last ?? .zero
        clock.advance(by: wait)
    }

    /// Waits through `count` failed attempts in a row, each followed by its whole wait on the
    /// clock, until attempt `count + 1` has started.
    func waitThroughAttempts(_ count: Int) async throws {
        for attempt in 1...count {
            try await attempts(attempt)
            try await elapseWait()
        }
        try await attempts(count + 1)
    }
}
