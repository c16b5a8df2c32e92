/// The life of one queued write, as a pure state machine: each event returns what the engine
/// must do about it. Once the write has ended (settled, rejected, dropped) every event is
/// `.ignore`d: the engine has forgotten it. An event that cannot happen in a phase still under
/// way (a send begun before the append committed, an answer to a send never begun) is a bug in
/// the engine: it stops a debug build with the phase and the event, and is ignored in a release
/// build, where stopping the app would cost its queue more than the stray event can.
///
/// ```
/// handedToStore --stored--> queued --sendBegan--> inFlight --sendEnded--> queued
///       |                    |  ^                    |  '--accepted--> settled
///   storeFailed           cleared '--sendAbandoned---'  '--rejected--> rejected
///       v                    v
///    dropped              cleared          (cleared from any phase)
/// ```
///
/// A write is picked for replay only when it is `queued` (its append committed, no attempt
/// under way). Once a send may have reached the server without an answer that settled it, the
/// write keeps `mayHaveBeenApplied` for good: the store keeps it marked in flight, and a resend
/// is only safe where it cannot apply the write twice.
struct WriteLife: Sendable, Hashable {
    /// Where the write stands.
    enum Phase: Sendable, Hashable {
        /// Joined the queue; its append is on its way to the store.
        case handedToStore
        /// On disk, waiting to be sent.
        case queued
        /// A send is under way.
        case inFlight
        /// The server applied it; it left the queue for the replay log.
        case settled
        /// The server refused it for good; it left the queue for the rejected writes.
        case rejected
        /// Gone: its append failed, or a clear wiped it.
        case dropped
    }

    /// What happened to the write.
    enum Event: Sendable, Hashable {
        case stored
        case storeFailed
        /// The store committed the attempt (in flight, attempts counted).
        case sendBegan
        /// The send ended without settling the write; `mayHaveBeenApplied` when the server may
        /// have applied it all the same.
        case sendEnded(mayHaveBeenApplied: Bool)
        /// The attempt was committed but the request never left (its ticket no longer held).
        case sendAbandoned
        case accepted
        case rejected
        case cleared
    }

    /// What the engine does after an event.
    enum Action: Sendable, Hashable {
        /// Nothing beyond the new phase.
        case none
        /// Clear the store's in-flight mark: the write is plainly queued again.
        case clearInFlightMark
        /// Forget the write (it is no longer queued).
        case forget
        /// The write has ended: change nothing.
        case ignore
    }

    private(set) var phase: Phase
    /// Sends begun so far, before this run included.
    private(set) var attempts: Int
    /// Whether a send may have reached the server without an answer that settled it.
    private(set) var mayHaveBeenApplied: Bool

    /// A write joining the queue; `interrupted` when an earlier send of it may have been applied.
    init(attempts: Int = 0, interrupted: Bool = false) {
        phase = .handedToStore
        self.attempts = attempts
        mayHaveBeenApplied = interrupted
    }

    /// A write read back from the store at launch.
    static func restored(attempts: Int, interrupted: Bool) -> WriteLife {
        var life = WriteLife(attempts: attempts, interrupted: interrupted)
        life.phase = .queued
        return life
    }

    /// Whether the store's queue holds the write: its append committed and it has not left.
    var isStored: Bool { phase == .queued || phase == .inFlight }

    /// Whether a replay may pick the write now.
    var isReadyToSend: Bool { phase == .queued }

    /// Whether a send was begun before, in this run or an earlier one.
    var wasAttempted: Bool { attempts > 0 || mayHaveBeenApplied }

    /// Applies `event`; returns what to do.
    mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (.handedToStore, .stored):
            phase = .queued
            return .none
        case (.handedToStore, .storeFailed):
            phase = .dropped
            return .forget
        case (.queued, .sendBegan):
            phase = .inFlight
            attempts += 1
            return .none
        case (.inFlight, .sendEnded(let applied)):
            phase = .queued
            if applied { mayHaveBeenApplied = true }
            return mayHaveBeenApplied ? .none : .clearInFlightMark
        case (.inFlight, .sendAbandoned):
            phase = .queued
            attempts -= 1
            return mayHaveBeenApplied ? .none : .clearInFlightMark
        case (.queued, .accepted), (.inFlight, .accepted):
            phase = .settled
            return .forget
        case (.queued, .rejected), (.inFlight, .rejected):
            phase = .rejected
            return .forget
        case (.settled, .cleared), (.rejected, .cleared), (.dropped, .cleared):
            return .ignore
        case (_, .cleared):
            phase = .dropped
            return .forget
        case (.settled, _), (.rejected, _), (.dropped, _):
            return .ignore
        default:
            assertionFailure("a queued write cannot see \(event) while \(phase)")
            return .ignore
        }
    }
}
