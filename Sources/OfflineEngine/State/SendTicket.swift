import Foundation

/// What a write may be sent as, fixed when the engine picks it: its owner, the session it goes
/// out with (whose token, or the token provider's for the same user, it carries: see
/// ``SessionTokens``), and the clear it was made after.
///
/// Between picking a write and sending it the engine awaits the store, and a sign-in, a sign-out
/// or a clear may run meanwhile. The request is built from the ticket, never from whatever
/// session is current by then, and the ticket is checked once more without the actor, with no
/// `await` between the check and handing the request to the transport
/// (``StateOutputs/mayStillSend(_:)``), so a write reaches the server only as its owner and never
/// after a clear wiped it. Replayed writes and writes sent at once are checked alike.
struct SendTicket: Sendable {
    /// The write's owner when it was picked (`nil`: made while nobody was signed in).
    let owner: String?
    /// The session the request carries (`nil`: the API key alone).
    let session: AuthSession?
    /// How many clears had run when the write was picked.
    let clearEpoch: Int
    /// How many clears of the owner's own data had run when the write was picked.
    let ownerClears: Int
    /// The ``TicketGate`` count when the write was picked: a clear, closing or a hand-over of
    /// owner-less writes since then voids the ticket.
    let gate: Int
}
