/// The refresh lifecycle of one live read as plain values: each event returns the state to
/// publish (if it changed) and what the refresh loop does next. No `await`, no I/O, no clock.
///
/// It follows the reference's state diagram and no other edge:
///
///     [*]        -> Refreshing
///     Refreshing -> Idle        the server answers
///     Refreshing -> Stalled     the fourth failure in a row
///     Refreshing -> Paused      it fails while the network is known down
///     Paused     -> Refreshing  the network comes back
///     Stalled    -> Idle        a later attempt succeeds
///     Stalled    -> Paused      it fails while the network is known down
///     Idle       -> Refreshing  a clear, a new owner, or a write marks the rows stale
///
/// Decisions where the reference is silent (each keeps to the edges above):
/// - "In a row" counts failures while the network is believed up; any answer from the server
///   (applied, refused, untrusted) ends the row, and the network coming back starts a new row.
/// - Paused makes no attempts: it waits for the network to come back.
/// - A stale mark only matters in Idle (the edge) and during an attempt (noted, so that the
///   answer, refused for good or applied, is followed by a new attempt instead of Idle: a mark
///   that does not move the table's mark, as `refreshLiveReads()` or a poll, would otherwise be
///   lost to an answer that left before it); elsewhere a refresh is already pending and nothing
///   changes.
/// - The network coming back or the session settling during an attempt is noted too: if that
///   attempt then fails or is untrusted, the next one starts at once instead of after a wait.
/// - An answer refused with `askAgain: false` (it left before `clearLocalData()`) with no stale
///   mark noted reads as the server having answered: Refreshing/Stalled -> Idle; the clear's
///   stale mark then moves Idle -> Refreshing.
/// - An empty answer that is not trusted keeps the state (Refreshing stays Refreshing; a Stalled
///   refresh stays Stalled, there being no edge back) and is asked again on the retry schedule,
///   so at most a minute apart.
/// - An attempt that found no usable token (``TokenUnavailable``: an expired session, a token the
///   server refused, a provider that gave none) is waiting for the session, not a failure: it
///   keeps the state and the row of failures, and is tried again on the retry schedule (a token
///   provider may give one later) or at once when the session settles.
/// - An answer refused with `askAgain: true` is asked again at once up to three times in a row;
///   after that (a table written to faster than the server answers) the retry schedule paces it,
///   so the loop can never spin.
struct RefreshStateMachine: Sendable {
    /// Something that happened to the refresh.
    enum Event: Sendable, Hashable {
        /// The live read starts; `sessionRestoring` says whether the stored session is still being
        /// read back (then the first attempt waits for it to settle).
        case start(sessionRestoring: Bool)
        /// The attempt the machine asked for was answered by the server.
        case answered(FetchOutcome)
        /// The attempt the machine asked for failed; `networkKnownDown` says whether the network
        /// was known to be unavailable (offline, not unknown) when it failed.
        case failed(RefreshFailure, networkKnownDown: Bool)
        /// The wait the machine asked for has elapsed.
        case waitElapsed
        /// The network came back (the monitor or the app's availability turned online, or
        /// `enableNetwork()` was called).
        case networkCameBack
        /// The session started restoring again: attempts wait until it settles.
        case sessionRestoring
        /// The session settled (a stored session finished restoring, or a user signed in).
        case sessionSettled
        /// The cached rows were marked stale (a clear, a new owner, a write, an expiry, the app
        /// asking): the refresh treats every cause alike, so none is named.
        case markedStale
        /// The app asked to sync now (`syncNow()`): a wait on the retry schedule is cut short
        /// with an attempt at once (or, during an attempt, its failure is tried again at once). Paused stays Paused (the network is still known down) and
        /// Idle stays Idle: no edge of the diagram is added.
        case tryNow
    }

    /// What the refresh loop does after an event.
    enum Next: Sendable, Hashable {
        /// Start an attempt now (ending any wait).
        case attempt
        /// Wait this long on the clock (ending any earlier wait), then report ``Event/waitElapsed``.
        case wait(Duration)
        /// End any wait and attempt nothing until a signal (network, session, stale mark) comes.
        case waitForSignal
        /// Carry on with what is under way (an attempt or a wait).
        case carryOn
    }

    /// The outcome of one event: the state to publish when it changed, and what to do next.
    struct Step: Sendable, Hashable {
        /// The new state, when it differs from the last one published.
        var publish: RefreshState?
        /// What the refresh loop does next.
        var next: Next
    }

    /// What the refresh is doing, beneath the published state.
    private enum Activity: Sendable, Hashable {
        case notStarted
        /// An attempt is in flight; signals that arrive meanwhile are noted.
        case attempting(markedStale: Bool, cutShort: Bool)
        /// Waiting on the clock before the next attempt.
        case waitingOnClock
        /// Refreshing, waiting for the stored session to settle.
        case waitingForSession
        /// Paused, waiting for the network to come back.
        case waitingForNetwork
        /// Idle, waiting for a stale mark.
        case resting
    }

    /// The failures in a row after which a refresh reads Stalled.
    static let failuresBeforeStall = 4
    /// Answers refused with `askAgain: true` that are asked again at once before the schedule paces.
    static let immediateReasks = 3

    /// The state last published.
    private(set) var state: RefreshState = .refreshing
    private var activity: Activity = .notStarted
    private var sessionRestoring = false
    private var failuresInARow = 0
    private var refusalsInARow = 0
    private var untrustedInARow = 0
    private var tokenWaitsInARow = 0
    private let schedule: RetrySchedule

    /// A machine that has not started; the diagram's initial state is Refreshing.
    init(schedule: RetrySchedule = .standard) {
        self.schedule = schedule
    }

    /// Applies `event` and returns what to publish and do.
    mutating func handle(_ event: Event) -> Step {
        switch event {
        case .start(let restoring):
            guard activity == .notStarted else {
                preconditionFailure("RefreshStateMachine started twice")
            }
            sessionRestoring = restoring
            // [*] -> Refreshing: always published, it is the read's first refresh state.
            state = .refreshing
            return Step(publish: .refreshing, next: attemptUnlessRestoring())
        case .answered(let outcome):
            return answered(outcome, notes: takeAttemptNotes())
        case .failed(let cause, let networkKnownDown):
            return failed(cause, networkKnownDown: networkKnownDown, notes: takeAttemptNotes())
        case .waitElapsed:
            // A wait that was cut short or replaced may still report: only the current one counts.
            guard activity == .waitingOnClock else { return Step(next: .carryOn) }
            return Step(next: attemptUnlessRestoring())
        case .networkCameBack:
            return networkCameBack()
        case .sessionRestoring:
            sessionRestoring = true
            return Step(next: .carryOn)
        case .sessionSettled:
            return sessionSettled()
        case .markedStale:
            return markedStale()
        case .tryNow:
            switch activity {
            case .waitingOnClock:
                return Step(next: attemptUnlessRestoring())
            case .attempting(let markedStale, _):
                // The attempt in flight may have left before the app asked.
                return cutAttemptShort(markedStale: markedStale)
            case .notStarted, .waitingForSession, .waitingForNetwork, .resting:
                return Step(next: .carryOn)
            }
        }
    }

    private struct AttemptNotes {
        var markedStale: Bool
        var cutShort: Bool
    }

    private mutating func takeAttemptNotes() -> AttemptNotes {
        guard case .attempting(let markedStale, let cutShort) = activity else {
            // The loop reports an outcome only for the attempt the machine asked for.
            preconditionFailure("RefreshStateMachine got an attempt's outcome with no attempt running")
        }
        return AttemptNotes(markedStale: markedStale, cutShort: cutShort)
    }

    private mutating func answered(_ outcome: FetchOutcome, notes: AttemptNotes) -> Step {
        // Any answer ends the row of failures: the server is reachable.
        failuresInARow = 0
        tokenWaitsInARow = 0
        switch outcome {
        case .applied where notes.markedStale:
            // The rows were marked stale after this request left (the app asked for fresh rows,
            // a poll, a change it could not lay): it is not the refresh asked for. Asked again at
            // once, as a refused answer is, with no Idle between.
            refusalsInARow = 0
            untrustedInARow = 0
            return Step(next: attemptUnlessRestoring())
        case .applied:
            refusalsInARow = 0
            untrustedInARow = 0
            activity = .resting
            // Refreshing -> Idle (the server answers); Stalled -> Idle (a later attempt succeeds).
            return Step(publish: move(to: .idle), next: .waitForSignal)
        case .refused(askAgain: true):
            refusalsInARow += 1
            if refusalsInARow <= Self.immediateReasks || notes.cutShort {
                return Step(next: attemptUnlessRestoring())
            }
            return waitOnClock(schedule.delay(afterFailure: refusalsInARow - Self.immediateReasks))
        case .refused(askAgain: false):
            refusalsInARow = 0
            if notes.markedStale {
                // The clear (or a later write) already asked for fresh rows: ask with the new state.
                return Step(next: attemptUnlessRestoring())
            }
            activity = .resting
            return Step(publish: move(to: .idle), next: .waitForSignal)
        case .emptyButUntrusted:
            refusalsInARow = 0
            untrustedInARow += 1
            if notes.cutShort {
                return Step(next: attemptUnlessRestoring())
            }
            return waitOnClock(schedule.delay(afterFailure: untrustedInARow))
        }
    }

    private mutating func failed(_ cause: RefreshFailure, networkKnownDown: Bool, notes: AttemptNotes) -> Step
    {
        refusalsInARow = 0
        if networkKnownDown {
            // Waiting for the network reads as waiting, never as a failure: the row ends here.
            failuresInARow = 0
            if notes.cutShort {
                // The network came back (or the app asked) while the attempt failed for want of
                // it: that comeback must not be lost to Paused. Tried again at once; still down,
                // that attempt fails at once and pauses.
                return Step(next: attemptUnlessRestoring())
            }
            activity = .waitingForNetwork
            // Refreshing -> Paused; Stalled -> Paused.
            return Step(publish: move(to: .paused), next: .waitForSignal)
        }
        if cause.underlying is TokenUnavailable {
            // Waiting for the session reads as waiting, never as a failure.
            tokenWaitsInARow += 1
            if notes.cutShort { return Step(next: attemptUnlessRestoring()) }
            return waitOnClock(schedule.delay(afterFailure: tokenWaitsInARow))
        }
        failuresInARow += 1
        var publish: RefreshState?
        if state == .refreshing && failuresInARow >= Self.failuresBeforeStall {
            // Refreshing -> Stalled (the fourth failure in a row). A Stalled refresh keeps its cause.
            publish = move(to: .stalled(cause))
        }
        if notes.cutShort {
            return Step(publish: publish, next: attemptUnlessRestoring())
        }
        var step = waitOnClock(schedule.delay(afterFailure: failuresInARow))
        step.publish = publish
        return step
    }

    private mutating func networkCameBack() -> Step {
        switch activity {
        case .waitingForNetwork:
            // Paused -> Refreshing (the network comes back); a new row of failures starts.
            failuresInARow = 0
            let publish = move(to: .refreshing)
            return Step(publish: publish, next: attemptUnlessRestoring())
        case .waitingOnClock:
            // The wait is cut short, with an attempt at once.
            return Step(next: attemptUnlessRestoring())
        case .attempting(let markedStale, _):
            return cutAttemptShort(markedStale: markedStale)
        case .notStarted, .waitingForSession, .resting:
            // Nothing is waiting for the network.
            return Step(next: .carryOn)
        }
    }

    private mutating func sessionSettled() -> Step {
        sessionRestoring = false
        switch activity {
        case .waitingForSession, .waitingOnClock:
            // Cold start ends, or the wait is cut short: an attempt at once.
            return Step(next: attemptUnlessRestoring())
        case .attempting(let markedStale, _):
            return cutAttemptShort(markedStale: markedStale)
        case .notStarted, .waitingForNetwork, .resting:
            // Paused still waits for the network; Idle waits for a stale mark (a new owner sends one).
            return Step(next: .carryOn)
        }
    }

    /// Notes the attempt in flight as cut short: if it fails, the next one starts at once
    /// instead of waiting on the schedule.
    private mutating func cutAttemptShort(markedStale: Bool) -> Step {
        activity = .attempting(markedStale: markedStale, cutShort: true)
        return Step(next: .carryOn)
    }

    private mutating func markedStale() -> Step {
        switch activity {
        case .resting:
            // Idle -> Refreshing (a clear, a new owner, or a write marks the rows stale).
            let publish = move(to: .refreshing)
            return Step(publish: publish, next: attemptUnlessRestoring())
        case .attempting(_, let cutShort):
            activity = .attempting(markedStale: true, cutShort: cutShort)
            return Step(next: .carryOn)
        case .notStarted, .waitingOnClock, .waitingForSession, .waitingForNetwork:
            // A refresh is already pending (or Paused waits for the network): no edge, no change.
            return Step(next: .carryOn)
        }
    }

    /// Attempts now, or (Refreshing) waits for a session that is still restoring.
    private mutating func attemptUnlessRestoring() -> Next {
        if sessionRestoring {
            activity = .waitingForSession
            return .waitForSignal
        }
        activity = .attempting(markedStale: false, cutShort: false)
        return .attempt
    }

    private mutating func waitOnClock(_ delay: Duration) -> Step {
        activity = .waitingOnClock
        return Step(next: .wait(delay))
    }

    /// Moves to `newState`; returns it when it differs from the state last published.
    private mutating func move(to newState: RefreshState) -> RefreshState? {
        guard newState != state else { return nil }
        state = newState
        return newState
    }
}

extension RefreshStateMachine.Step {
    init(next: RefreshStateMachine.Next) {
        self.init(publish: nil, next: next)
    }
}
