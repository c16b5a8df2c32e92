import Foundation

/// The steps of an offline-first write sent at once, run on ``EngineState``'s isolation: whether
/// it goes now or queues, how it stops showing as sent, and how it queues when it may no longer
/// be sent.
enum ImmediateSendEvents {
    /// Makes a new offline-first write from `draft` and queues it or lets it be sent at once. It
    /// never overtakes an earlier write of its owner: this waits for one being sent at once.
    static func firstStep(for draft: Mutation, in state: isolated EngineState) async throws -> (
        Mutation, SendTicket, FirstStep
    ) {
        let (mutation, ticket) = state.newWrite(draft)
        let owner = ticket.owner
        while !state.closed, state.services.immediateSends.isSending(for: owner) {
            await state.services.immediateSends.waitUntilNone(for: owner)
        }
        guard !state.ownership.wasCleared(since: ticket) else { throw ClientError.cleared }
        if state.closed || state.services.connectivity.current == .offline
            || state.outputs.session.value == .restoring
            || state.queue.counts[owner] != nil
        {
            return (mutation, ticket, .queued(try await state.enqueue(mutation)))
        }
        state.services.immediateSends.begin(for: owner)
        // Shown in every list at once, as a pending write, while its request waits for the
        // server (see ``endSending(_:in:)``).
        state.tables.showAsSent(mutation)
        state.tables.publishAppended(TableID(mutation), owner: state.overlayOwner)
        return (mutation, ticket, .send)
    }

    /// A write sent at once no longer shows as sent: it settled (the lists hold what the
    /// server sent), was refused, or was cleared. A write queued meanwhile stays, as queued.
    static func endSending(_ mutation: Mutation, in state: isolated EngineState) {
        guard state.queue[mutation.id] == nil else { return }
        state.tables.endShowingAsSent(mutation, owner: state.overlayOwner)
    }

    /// Queues a write its ticket may no longer send, for its owner; after a clear since the
    /// ticket was taken, throws ``ClientError/cleared`` instead.
    static func enqueueUnlessCleared(
        _ mutation: Mutation, ticket: SendTicket, interrupted: Bool = false,
        in state: isolated EngineState
    ) async throws -> PendingMutation {
        guard !state.ownership.wasCleared(since: ticket) else { throw ClientError.cleared }
        return try await state.enqueue(mutation, interrupted: interrupted)
    }
}
