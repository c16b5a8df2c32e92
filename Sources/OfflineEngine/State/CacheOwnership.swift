import Foundation

/// Whose cache this is and which clears and hand-overs it has been through: what decides whether
/// an answer may still be written, and whether a write may still be sent as its ticket says.
///
/// A pure value held by ``EngineState``; the session it is asked about is passed in, so each
/// decision is made from the values of one actor step.
struct CacheOwnership: Sendable {
    /// The user whose data the cache holds (`nil`: fetched signed out).
    var owner: String?
    /// Ticks of the last clear and the last change of owner; answers to requests that left
    /// before them are refused. `clearedAt` reads `.max` while a clear waits for its tick.
    var clearedAt: Int64 = 0
    var ownerChangedAt: Int64 = 0
    /// How many clears have begun; a ticket taken before the latest is void. Moved before any
    /// `await` of the clear, unlike `clearedAt`, which needs the store's tick.
    var clearEpoch = 0
    /// How many clears of each user's own data have begun (``clearLocalData(user:)``): a ticket
    /// of that user taken before the latest is void, whoever is signed in.
    var userClears: [String: Int] = [:]
    /// How many changes of owner have begun: only the latest sets `ownerChangedAt` once its tick
    /// is known (it reads `.max` until then).
    var ownerChanges = 0
    /// Moves each time the lists held in memory stop being the cache's (a change of owner, a
    /// clear): a read of the store's lists begun before is read again.
    var listsGeneration = 0

    /// The `user` of the store's lists that are the cache now.
    var partition: String { Store.partition(of: owner) }

    /// Begins a change of owner: every answer is refused until its tick is known. Returns the
    /// change's number, for ``endOwnerChange(_:at:)``.
    mutating func beginOwnerChange() -> Int {
        ownerChanges += 1
        ownerChangedAt = .max
        return ownerChanges
    }

    /// Ends change `number` at `tick`, unless a later change began meanwhile.
    mutating func endOwnerChange(_ number: Int, at tick: Int64) {
        if number == ownerChanges { ownerChangedAt = tick }
    }

    /// The user whose queued writes are laid over the lists: the signed-in user, or while the
    /// stored session is read back, the cache's owner (whose session it most likely is).
    func overlayOwner(_ session: SessionState) -> String? {
        session == .restoring ? owner : session.userID
    }

    /// Begins a clear: tickets taken before are void, and every answer is refused until the
    /// clear's tick is known.
    mutating func beginClear() {
        clearEpoch += 1
        clearedAt = .max
        owner = nil
        listsGeneration += 1
    }

    /// Begins a clear of `user`'s own data: their tickets taken before are void.
    mutating func beginClear(ofUser user: String) {
        userClears[user, default: 0] += 1
    }

    /// How many clears of `owner`'s own data have begun (none for owner-less writes).
    func clears(of owner: String?) -> Int {
        owner.flatMap { userClears[$0] } ?? 0
    }

    /// Whether a clear (of everything, or of the ticket's owner) began after `ticket` was taken:
    /// its write was wiped, and is neither sent nor queued again.
    func wasCleared(since ticket: SendTicket) -> Bool {
        ticket.clearEpoch != clearEpoch || ticket.ownerClears != clears(of: ticket.owner)
    }

    // MARK: Answers

    /// Why an answer to a request that left at `tick` may not be written, or `nil` when it may.
    /// `mark` is the answer's table's change mark.
    func refusal(ofAnswerAt tick: Int64, mark: Int64) -> FetchOutcome? {
        // While a clear waits for the store, every answer is refused; the clear marks the reads
        // stale, so they ask again with the signed-out session.
        if clearedAt == .max { return .refused(askAgain: true) }
        if tick < clearedAt { return .refused(askAgain: false) }
        if tick < ownerChangedAt || tick < mark { return .refused(askAgain: true) }
        return nil
    }

    /// Whether a write the server accepted at once, requested at `tick`, may be laid over the
    /// lists: no clear and no new owner since the request left.
    func admitsPatch(requestedAt tick: Int64) -> Bool {
        tick >= clearedAt && tick >= ownerChangedAt
    }

    // MARK: Tickets

    /// A new write made from `draft`: owned by the user signed in now, with its ticket (`gate`:
    /// the ``TicketGate`` count now).
    func newWrite(_ draft: Mutation, _ session: SessionState, gate: Int) -> (Mutation, SendTicket) {
        let ticket = ticketForNewWrite(session, gate: gate)
        var write = draft
        write.ownerID = ticket.owner
        write.createdAt = Date()
        return (write, ticket)
    }

    /// A ticket for a new write: its owner is the user signed in now (`nil`: nobody), sent with
    /// the current session.
    func ticketForNewWrite(_ session: SessionState, gate: Int) -> SendTicket {
        let current = session.authSession
        return SendTicket(
            owner: current?.userID, session: current, clearEpoch: clearEpoch,
            ownerClears: clears(of: current?.userID), gate: gate)
    }

    /// A ticket for a write of `owner` under `session`, or `nil` when that session may not send
    /// it (another user is signed in).
    func ticket(for owner: String?, _ session: SessionState, gate: Int) -> SendTicket? {
        let current = session.authSession
        if let owner, current?.userID != owner { return nil }
        return SendTicket(
            owner: owner, session: current, clearEpoch: clearEpoch, ownerClears: clears(of: owner), gate: gate
        )
    }

    /// Whether a ticket still holds under `session`: no clear since, and the session's user is
    /// the ticket's (`nil` owner: the session is unchanged).
    func holds(_ ticket: SendTicket, _ session: SessionState) -> Bool {
        !wasCleared(since: ticket) && session.authSession?.userID == ticket.session?.userID
    }
}
