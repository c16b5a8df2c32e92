import Synchronization

/// Counts the events that void every ticket taken before them (a clear, closing, owner-less
/// writes passed to a user), readable without the state actor.
///
/// A ticket (``SendTicket``) reads the count in the actor step that makes it: the step that
/// picks a replay run, or the one that makes a write sent at once. Right before each request
/// leaves, the count and the session are checked again with no `await` between the check and
/// the send (``StateOutputs/mayStillSend(_:)``). The state bumps the count in the same step as the
/// event, so a write never leaves after one.
final class TicketGate: Sendable {
    private let voids = Mutex(0)

    /// How many voiding events have happened.
    var count: Int { voids.withLock { $0 } }

    /// Voids every ticket taken before now.
    func void() {
        voids.withLock { $0 += 1 }
    }
}
