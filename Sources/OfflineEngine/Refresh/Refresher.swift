import Synchronization

/// Keeps one live read's rows fresh: asks the server until it answers, retries on the schedule,
/// waits for the network or the session instead of failing, and reports each ``RefreshState``.
///
/// Usage: make one per live read, run ``run()`` in a child task of the read's owner, and call
/// ``stop()`` (or cancel that task) to stop it; ``run()`` returns only after its retry wait and its attempt have ended, so no
/// task or clock sleeper is left behind. ``markStale(_:)`` may be called from anywhere.
final class Refresher: Sendable {
    /// One refresh attempt: asks the server, writes what may be written, and says what became of
    /// the answer; throws when the request failed.
    typealias Fetch = @Sendable () async throws -> FetchOutcome

    private enum Signal: Sendable {
        case event(RefreshStateMachine.Event)
        case waitElapsed(UInt64)
        case attemptEnded(UInt64, RefreshStateMachine.Event)
    }

    /// The failure recorded when an attempt is skipped because the network is known down.
    private struct NetworkUnavailable: Error {}

    private let fetch: Fetch
    private let environment: RefreshEnvironment
    private let report: @Sendable (RefreshState) async -> Void
    private let signals: AsyncStream<Signal>
    private let inbox: AsyncStream<Signal>.Continuation
    private let started = Mutex(false)
    private let latest = Mutex(RefreshState.refreshing)

    /// A refresher that calls `fetch` for each attempt and awaits `report` with the state after
    /// every change of state and after every attempt (in order, from the refresh's own task, the
    /// first being `.refreshing` when it starts). An attempt's answer and the state it ends in
    /// reach the report together, so a reader sees them in one snapshot.
    init(
        environment: RefreshEnvironment,
        fetch: @escaping Fetch,
        report: @escaping @Sendable (RefreshState) async -> Void
    ) {
        self.fetch = fetch
        self.environment = environment
        self.report = report
        (signals, inbox) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .unbounded)
    }

    /// The state last reported.
    var state: RefreshState { latest.withLock { $0 } }

    /// Tells the refresh that a clear, a new owner or a write marked its rows stale: an Idle
    /// refresh starts again; a refresh that is attempting notes it.
    func markStale(_ reason: RefreshStateMachine.StaleReason) {
        inbox.yield(.event(.markedStale(reason)))
    }

    /// Ends ``run()``: its wait and attempt are cancelled and awaited before it returns. A
    /// refresher stopped before it runs returns at once when it does.
    func stop() {
        inbox.finish()
    }

    /// Runs the refresh until ``stop()`` or until the calling task is cancelled; runs once per
    /// refresher (a second call returns at once).
    func run() async {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        // Subscribe before reading the session's state, so a settling in between is not missed.
        let networkCameBack = environment.networkCameBack()
        let sessionSettled = environment.sessionSettled()
        let restoring = environment.sessionRestoring()
        let inbox = self.inbox
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in networkCameBack { inbox.yield(.event(.networkCameBack)) }
            }
            group.addTask {
                for await _ in sessionSettled { inbox.yield(.event(.sessionSettled)) }
            }
            var loop = Loop(refresher: self)
            await loop.process(.start(sessionRestoring: restoring))
            for await signal in signals {
                await loop.receive(signal)
            }
            // The stream ends when this task is cancelled: stop the watchers, the wait, the attempt.
            group.cancelAll()
            await loop.stop()
        }
        inbox.finish()
    }

    /// The loop's own state: the machine, the running wait and attempt, and their tokens.
    private struct Loop {
        let refresher: Refresher
        var machine: RefreshStateMachine
        var token: UInt64 = 0
        var wait: Task<Void, Never>?
        var attempt: Task<Void, Never>?

        init(refresher: Refresher) {
            self.refresher = refresher
            self.machine = RefreshStateMachine(schedule: refresher.environment.schedule)
        }

        mutating func receive(_ signal: Signal) async {
            switch signal {
            case .event(let event):
                await process(event)
            case .waitElapsed(let token):
                // A wait that was cut short may have fired before it was cancelled.
                guard token == self.token, wait != nil else { return }
                wait = nil
                await process(.waitElapsed)
            case .attemptEnded(let token, let event):
                guard token == self.token, attempt != nil else { return }
                attempt = nil
                // The attempt's answer is reported with the state it ends in, changed or not.
                if await !process(event) {
                    await refresher.report(refresher.state)
                }
            }
        }

        /// Runs the machine on an event; returns whether a state was reported.
        @discardableResult
        mutating func process(_ event: RefreshStateMachine.Event) async -> Bool {
            var step = machine.handle(event)
            var reported = false
            while true {
                if let state = step.publish {
                    refresher.latest.withLock { $0 = state }
                    await refresher.report(state)
                    reported = true
                }
                switch step.next {
                case .carryOn:
                    return reported
                case .waitForSignal:
                    endWait()
                    return reported
                case .wait(let delay):
                    endWait()
                    startWait(delay)
                    return reported
                case .attempt:
                    endWait()
                    if refresher.environment.connectivity() == .offline {
                        // No request goes out while the network is known down (disableNetwork()
                        // included): the attempt fails at once, which pauses the refresh.
                        let cause = RefreshFailure(
                            NetworkUnavailable(), summary: "The network is unavailable.")
                        step = machine.handle(.failed(cause, networkKnownDown: true))
                        continue
                    }
                    startAttempt()
                    return reported
                }
            }
        }

        private mutating func endWait() {
            wait?.cancel()
            wait = nil
        }

        private mutating func startWait(_ delay: Duration) {
            token += 1
            let token = token
            let clock = refresher.environment.clock
            let inbox = refresher.inbox
            wait = Task {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
                inbox.yield(.waitElapsed(token))
            }
        }

        private mutating func startAttempt() {
            token += 1
            let token = token
            let fetch = refresher.fetch
            let connectivity = refresher.environment.connectivity
            let summarize = refresher.environment.summarize
            let inbox = refresher.inbox
            attempt = Task {
                let event: RefreshStateMachine.Event
                do {
                    event = .answered(try await fetch())
                } catch {
                    if Task.isCancelled { return }
                    let cause = RefreshFailure(error, summary: summarize(error))
                    event = .failed(cause, networkKnownDown: connectivity() == .offline)
                }
                inbox.yield(.attemptEnded(token, event))
            }
        }

        /// Cancels the wait and the attempt and waits until both have ended.
        mutating func stop() async {
            wait?.cancel()
            attempt?.cancel()
            await wait?.value
            await attempt?.value
            wait = nil
            attempt = nil
        }
    }
}
