import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

// Shared pieces for the refresh tests: an awaitable log, a scripted fetch, a
// scripted session, and a harness wiring them to a Refresher on a ManualClock.

/// An append-only log a test can await: `values(atLeast:)` returns once it holds that many.
final class AsyncLog<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var nextID = 0
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var cancelled: Set<Int> = []
    }
    private let state = Mutex(State())

    var values: [Value] { state.withLock { $0.values } }

    func append(_ value: Value) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.values.append(value)
            let due = state.waiters.filter { $0.value.count <= state.values.count }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until the log holds at least `count` values; returns them. Throws
    /// `CancellationError` when cancelled first: a caller waiting in a loop (for a value that
    /// never comes, under a timeout) stops instead of spinning on a wait that returns at once.
    func values(atLeast count: Int) async throws -> [Value] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil || state.values.count >= count { return true }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
        let held = values
        if held.count < count { try Task.checkCancellation() }
        return held
    }
}

struct TestFailure: Error, Hashable {
    var name: String
}

/// What one scripted attempt does.
enum ScriptedAttempt: Sendable {
    case answer(FetchOutcome)
    case fail(TestFailure)
}

/// A fetch that plays a script; an attempt with nothing scripted waits until the test pushes its
/// result, so a test can act while an attempt is in flight.
final class ScriptedFetch: Sendable {
    private struct State {
        var script: [ScriptedAttempt] = []
        var held: CheckedContinuation<ScriptedAttempt, any Error>?
    }
    private let state = Mutex(State())
    /// One entry per attempt started, numbered from 1.
    let attempts = AsyncLog<Int>()

    init(_ script: [ScriptedAttempt] = []) {
        state.withLock { $0.script = script }
    }

    /// Gives the held attempt its result, or scripts the next attempt's.
    func push(_ attempt: ScriptedAttempt) {
        let held = state.withLock { state in
            if let held = state.held {
                state.held = nil
                return Optional(held)
            }
            state.script.append(attempt)
            return nil
        }
        held?.resume(returning: attempt)
    }

    func callAsFunction() async throws -> FetchOutcome {
        attempts.append(attempts.values.count + 1)
        let next: ScriptedAttempt = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let scripted = state.withLock { state -> ScriptedAttempt? in
                    if !state.script.isEmpty { return state.script.removeFirst() }
                    state.held = continuation
                    return nil
                }
                if let scripted { continuation.resume(returning: scripted) }
            }
        } onCancel: {
            let held = state.withLock { state in
                defer { state.held = nil }
                return state.held
            }
            held?.resume(throwing: CancellationError())
        }
        switch next {
        case .answer(let outcome): return outcome
        case .fail(let failure): throw failure
        }
    }
}

/// A session that can be restoring and can settle (restore finished, or a user signed in).
final class ScriptedSession: Sendable {
    private struct State {
        var restoring: Bool
        var readers: [AsyncStream<Void>.Continuation] = []
    }
    private let state: Mutex<State>

    init(restoring: Bool = false) {
        state = Mutex(State(restoring: restoring))
    }

    var restoring: Bool { state.withLock { $0.restoring } }

    func settled() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        state.withLock { $0.readers.append(continuation) }
        return stream
    }

    /// The stored session finished restoring, or a user signed in.
    func settle() {
        state.withLock { state in
            state.restoring = false
            for reader in state.readers { reader.yield() }
        }
    }
}

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

    func start() {
        let refresher = refresher
        task.withLock { $0 = Task { await refresher.run() } }
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
}

extension RefreshState {
    /// The stall's cause, if stalled.
    var cause: RefreshFailure? {
        if case .stalled(let cause) = self { return cause }
        return nil
    }
}

@Suite("Refresh test harness")
struct RefreshHarnessTests {
    @Test("a timeout guard fails a wait that never ends, instead of hanging")
    func timeoutGuardFails() async {
        let log = AsyncLog<Int>()
        await #expect(throws: TimedOut.self) {
            _ = try await withTimeout(0.05) { try await log.values(atLeast: 1) }
        }
    }

    @Test("an awaited log returns once it holds the values asked for")
    func logReturnsValues() async throws {
        let log = AsyncLog<Int>()
        log.append(1)
        log.append(2)
        let values = try await withTimeout { try await log.values(atLeast: 2) }
        #expect(values == [1, 2])
    }
}
