import Streams

/// What ``EngineState`` tells the rest of the engine: keep-newest facts (the session, the queue's
/// counts, the rejected writes, each table's change mark) whose one writer is the state, the
/// signals that wake the replay and waiting refreshes, and the count of voided tickets. The
/// engine makes them and hands them to their readers itself; nobody reads them through the
/// state.
struct StateOutputs: Sendable {
    let session = StateBroadcast<SessionState, Never>(.restoring)
    let queue = StateBroadcast<QueueFacts, Never>(QueueFacts())
    let rejected: RejectedWrites
    let marks: ChangeMarks
    let signals = ReplaySignals()
    let ticketGate = TicketGate()
    /// The callers waiting for a queued write to leave the queue.
    let departures = WriteDepartures()
    /// What the client did, for the app's logs (``OfflineClient/events``): sent by each part for
    /// what it did.
    let events: EventBroadcast<SyncEvent, Never>

    init(store: Store, primaryKeys: PrimaryKeys, events: EventBroadcast<SyncEvent, Never>) {
        rejected = RejectedWrites(store: store, primaryKeys: primaryKeys)
        marks = ChangeMarks(store: store)
        self.events = events
    }

    /// Whether a ticket still holds (no clear, close or hand-over since it was taken, and the
    /// same user signed in), checked without the actor so that nothing can change between the
    /// check and the request leaving: a replay run's, or a write's sent at once.
    func mayStillSend(_ ticket: SendTicket) -> Bool {
        ticketGate.count == ticket.gate && session.value.authSession?.userID == ticket.session?.userID
    }

    /// Makes the calls under way end as they would offline: tickets are void and nothing waits
    /// for the session any more.
    func beginClosing() {
        ticketGate.void()
        session.finish()
        signals.sessionSettled.finish()
    }

    /// Finishes every stream.
    func finish() {
        beginClosing()
        queue.finish()
        events.finish()
        rejected.finish()
        signals.finish()
        departures.finish()
    }
}
