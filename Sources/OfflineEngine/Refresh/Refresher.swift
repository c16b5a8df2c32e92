import Streams
import Synchronization

/// Keeps one live read's rows fresh: asks the server until it answers, retries on the schedule,
/// waits for the network or the session instead of failing, and reports each ``RefreshState``.
///
/// Usage: make one per live read and run ``run()`` as a child task of the read's shared
/// iteration; cancelling that task stops it, and ``run()`` returns only after its retry wait and
/// its attempt have ended, so no task or clock sleeper is left behind. It may run again after it
/// returned (the next reader of the read), starting from `.refreshing`. ``markStale(_:)`` may be
/// called from anywhere. Its state is a stream: ``states`` keeps the newest report for readers,
/// ``reports()`` delivers every report in order.
final class Refresher: Sendable {
    /// One refresh attempt: asks the server, writes what may be written, and says what became of
    /// the answer; throws when the request failed.
    typealias Fetch = @Sendable () async throws -> FetchAnswer

    private enum Signal: Sendable {
        case event(RefreshStateMachine.Event)
        case waitElapsed(UInt64)
        case attemptEnded(UInt64, RefreshStateMachine.Event, written: Int?)
        /// ``stop()`` was called: the loop ends (the merged watchers never end on their own).
        case stopped
    }

    /// The failure recorded when an attempt is skipped because the network is known down.
    private struct NetworkUnavailable: Error {}

    private let fetch: Fetch
    private let environment: RefreshEnvironment
    /// The running refresh's inbox (`nil`: not running, or stopped).
    private let inbox = Mutex<AsyncStream<Signal>.Continuation?>(nil)
    private let running = Mutex(false)
    /// Every report, in order (for logs and tests).
    private let log = EventBroadcast<RefreshReport, Never>()
    /// The newest answer an attempt wrote, recorded as the attempt returns: an attempt whose run
    /// stopped before it could report (its readers left while the server answered) still wrote
    /// rows that the read's snapshots hold back until a report carries them, so the next run
    /// carries it from its first report.
    private let written = Mutex(0)

    /// The newest report, replayed to each new reader: what a live read combines with its rows.
    let states = StateBroadcast<RefreshReport, Never>(.starting)

    /// A refresher that calls `fetch` for each attempt and reports after every change of state
    /// and after every attempt (in order, the first being `.refreshing` when it starts). An
    /// attempt's answer and the state it ends in are one report.
    init(environment: RefreshEnvironment, fetch: @escaping Fetch) {
        self.fetch = fetch
        self.environment = environment
    }

    /// The state last reported.
    var state: RefreshState { states.value.state }

    /// The newest answer reported or written by an attempt, whichever is newer.
    private var newestAnswer: Int {
        max(states.value.answer, written.withLock { $0 })
    }

    /// Records an answer an attempt wrote, before its run may report it.
    private func recordWritten(_ answer: Int) {
        written.withLock { $0 = max($0, answer) }
    }

    /// Every report from now on (subscribed when called), in order, none dropped; it finishes
    /// with ``finish()``.
    func reports() -> AsyncThrowingStream<RefreshReport, any Error> {
        log.stream()
    }

    /// Tells the refresh that a clear, a new owner or a write marked its rows stale: an Idle
    /// refresh starts again; a refresh that is attempting notes it. Ignored while not running
    /// (a run starts by asking anyway).
    func markStale() {
        _ = inbox.withLock { $0 }?.yield(.event(.markedStale))
    }

    /// Tells the refresh to try now if it waits on the retry schedule (Refreshing after a failure,
    /// or Stalled); see ``RefreshStateMachine/Event/tryNow``.
    func tryNow() {
        _ = inbox.withLock { $0 }?.yield(.event(.tryNow))
    }

    /// Ends a running ``run()``: its wait and attempt are cancelled and awaited before it
    /// returns.
    func stop() {
        let running = inbox.withLock { $0 }
        running?.yield(.stopped)
        running?.finish()
    }

    /// Finishes the report streams for good (the client closed).
    func finish() {
        stop()
        states.finish()
        log.finish()
    }

    /// Runs the refresh until ``stop()`` or until the calling task is cancelled. One run at a
    /// time: a call while another runs returns at once.
    func run() async {
        let first = running.withLock { running in
            defer { running = true }
            return !running
        }
        guard first else { return }
        defer { running.withLock { $0 = false } }
        let (signals, inbox) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .unbounded)
        self.inbox.withLock { $0 = inbox }
        defer {
            self.inbox.withLock { $0 = nil }
            // The next run starts from `.refreshing`, as a new read does.
            states.send(RefreshReport(state: .refreshing, answer: newestAnswer))
        }
        // Subscribe before reading the session's state, so a settling in between is not missed.
        let networkCameBack = environment.networkCameBack()
        let sessionSettled = environment.sessionSettled()
        let restoring = environment.sessionRestoring()
        // The loop's own signals, the network coming back and the session settling, as one
        // sequence; it ends when this task is cancelled, which stops the watchers with it.
        var received = merge(
            signals, networkCameBack.mapSync { Signal.event(.networkCameBack) },
            sessionSettled.mapSync { Signal.event(.sessionSettled) }
        )
        .makeAsyncIterator()
        var loop = Loop(refresher: self, inbox: inbox)
        loop.process(.start(sessionRestoring: restoring))
        // None of the three throws.
        while let signal = try? await received.next() {
            if case .stopped = signal { break }
            loop.receive(signal)
        }
        // Stop the wait and the attempt.
        await loop.stop()
        inbox.finish()
    }

    /// The loop's own state: the machine, the running wait and attempt, and their tokens.
    private struct Loop {
        let refresher: Refresher
        let inbox: AsyncStream<Signal>.Continuation
        var machine: RefreshStateMachine
        var token: UInt64 = 0
        var wait: Task<Void, Never>?
        var attempt: Task<Void, Never>?
        /// The newest answer an attempt wrote, carried by every report.
        var answer: Int

        init(refresher: Refresher, inbox: AsyncStream<Signal>.Continuation) {
            self.refresher = refresher
            self.inbox = inbox
            self.machine = RefreshStateMachine(schedule: refresher.environment.schedule)
            self.answer = refresher.newestAnswer
        }

        /// Sends a report of `state` with the newest answer.
        private func report(_ state: RefreshState) {
            let report = RefreshReport(state: state, answer: answer)
            refresher.log.send(report)
            refresher.states.send(report)
        }

        mutating func receive(_ signal: Signal) {
            switch signal {
            case .event(let event):
                process(event)
            case .waitElapsed(let token):
                // A wait that was cut short may have fired before it was cancelled.
                guard token == self.token, wait != nil else { return }
                wait = nil
                process(.waitElapsed)
            case .attemptEnded(let token, let event, let written):
                guard token == self.token, attempt != nil else { return }
                attempt = nil
                if let written { answer = max(answer, written) }
                // The attempt's answer is reported with the state it ends in, changed or not.
                if !process(event) {
                    report(refresher.state)
                }
            case .stopped:
                // The run's loop ends before it hands this on.
                break
            }
        }

        /// Runs the machine on an event; returns whether a state was reported.
        @discardableResult
        mutating func process(_ event: RefreshStateMachine.Event) -> Bool {
            var step = machine.handle(event)
            var reported = false
            while true {
                if let state = step.publish {
                    report(state)
                    refresher.environment.stateChanged(state)
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
            let inbox = inbox
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
            let (refresher, fetch) = (refresher, refresher.fetch)
            let connectivity = refresher.environment.connectivity
            let summarize = refresher.environment.summarize
            let inbox = inbox
            attempt = Task {
                let event: RefreshStateMachine.Event
                var written: Int?
                do {
                    let answer = try await fetch()
                    written = answer.answer
                    if let written { refresher.recordWritten(written) }
                    event = .answered(answer.outcome)
                } catch {
                    if Task.isCancelled { return }
                    let cause = RefreshFailure(error, summary: summarize(error))
                    event = .failed(cause, networkKnownDown: connectivity() == .offline)
                }
                inbox.yield(.attemptEnded(token, event, written: written))
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
