import Foundation

/// What a write may be sent as, fixed when the engine picks it: its owner, the session it goes
/// out with, and the clear it was made after.
///
/// Between picking a write and sending it the engine awaits the store, and a sign-in, a sign-out
/// or a clear may run meanwhile. The request is built from the ticket, never from whatever
/// session is current by then, and the ticket is checked once more with no `await` between the
/// check and handing the request to the transport (``EngineState/maySend(_:queuedWrite:)``), so a
/// write reaches the server only as its owner and never after a clear wiped it.
struct SendTicket: Sendable {
    /// The write's owner when it was picked (`nil`: made while nobody was signed in).
    let owner: String?
    /// The session the request carries (`nil`: the API key alone).
    let session: AuthSession?
    /// How many clears had run when the write was picked.
    let clearEpoch: Int

    /// The access token the request carries.
    var accessToken: String? { session?.accessToken }
}

extension EngineState {
    /// A ticket for a new write: its owner is the user signed in now (`nil`: nobody), sent with
    /// the current session.
    func ticketForNewWrite() -> SendTicket {
        let current = session.value.authSession
        return SendTicket(owner: current?.userID, session: current, clearEpoch: clearEpoch)
    }

    /// A ticket for a write of `owner` under the session current now, or `nil` when that session
    /// may not send it (another user is signed in).
    func ticket(for owner: String?) -> SendTicket? {
        let current = session.value.authSession
        if let owner, current?.userID != owner { return nil }
        return SendTicket(owner: owner, session: current, clearEpoch: clearEpoch)
    }

    /// Whether a ticket still holds: no clear since, the client open, and the session current
    /// now is the ticket's user (`nil` owner: the session is unchanged). With `queuedWrite`, also
    /// that the write is still queued with the ticket's owner (not cleared, settled or claimed).
    func maySend(_ ticket: SendTicket, queuedWrite id: UUID? = nil) -> Bool {
        guard !closed, ticket.clearEpoch == clearEpoch else { return false }
        let current = session.value.authSession
        guard current?.userID == ticket.session?.userID else { return false }
        if let id {
            guard let entry = queue[id],
                entry.mutation.ownerID == ticket.owner, entry.life.phase == .inFlight
            else { return false }
        }
        return true
    }
}
