import Foundation

extension EngineState {
    /// Appends a write to the durable queue; returns once a crash can no longer lose it, and its
    /// table's facts show it (writes committed together reach them in one value). It joins the
    /// queue and is handed to the store with no `await` between, so the store's order is the
    /// queue's, and a clear wipes exactly the writes handed to the store before it.
    func enqueue(_ mutation: Mutation, interrupted: Bool = false) async throws -> PendingMutation {
        let table = TableID(mutation)
        queue.append(QueueEntry(mutation, interrupted: interrupted))
        tables.append(mutation)
        publishQueue()
        do {
            try await store.queue.enqueue(mutation, interrupted: interrupted)
        } catch {
            if handle(.storeFailed, of: mutation.id) == .forget { forget(mutation.id) }
            throw error
        }
        _ = handle(.stored, of: mutation.id)
        // An UPDATE may move rows of the table's other lists into a live read that holds only its
        // own: read them first (those reads show their last snapshot meanwhile).
        if mutation.operation == .update, tables.isPartlyLoaded(table) { try? await loadLists(of: table) }
        tables.publishAppended(table, owner: overlayOwner)
        signals.work.fire()
        return PendingMutation(mutation, primaryKeys: primaryKeys)
    }

    /// Applies an event to a queued write's life; `.ignore` when it is not queued.
    @discardableResult
    func handle(_ event: WriteLife.Event, of id: UUID) -> WriteLife.Action {
        queue.update(id) { $0.life.handle(event) } ?? .ignore
    }

    /// Takes a write out of the queue and its table's facts.
    func forget(_ id: UUID) {
        guard let mutation = queue.remove(id)?.mutation else { return }
        tables.remove(mutation, owner: overlayOwner)
        publishQueue()
    }

    /// A new write made from `draft`: owned by the user signed in now, with its ticket.
    func newWrite(_ draft: Mutation) -> (Mutation, SendTicket) {
        ownership.newWrite(draft, session.value)
    }

    /// Makes a new offline-first write from `draft` and queues it or lets it be sent at once. It
    /// never overtakes an earlier write of its owner: this waits for one being sent at once.
    func firstStep(for draft: Mutation) async throws -> (Mutation, SendTicket, FirstStep) {
        let (mutation, ticket) = newWrite(draft)
        let owner = ticket.owner
        while !closed, immediateSends.isSending(for: owner) {
            await immediateSends.waitUntilNone(for: owner)
        }
        guard ticket.clearEpoch == ownership.clearEpoch else { throw ClientError.cleared }
        if closed || connectivity.current == .offline || session.value == .restoring
            || queue.counts[owner] != nil
        {
            return (mutation, ticket, .queued(try await enqueue(mutation)))
        }
        immediateSends.begin(for: owner)
        return (mutation, ticket, .send)
    }

    /// The oldest queued write the signed-in user may send (theirs or owner-less), with its ticket.
    func nextReplay() -> ReplayPick {
        guard !closed, connectivity.current != .offline, session.value != .restoring else { return .blocked }
        guard let entry = queue.nextToSend(as: session.value.userID),
            let ticket = ownership.ticket(for: entry.mutation.ownerID, session.value)
        else { return .drained }
        return .write(entry.mutation, entry.life, ticket)
    }

    /// Commits a send's attempt (in flight, attempts counted) and checks its ticket once more,
    /// with no `await` between the check and the return. `false`: do not send.
    func beginSend(_ id: UUID, ticket: SendTicket) async -> Bool {
        guard let begun = try? await store.queue.beginAttempt(id) else { return false }
        guard begun else {
            // The store no longer holds it: forget it, so the pass does not pick it again.
            forget(id)
            return false
        }
        guard handle(.sendBegan, of: id) != .ignore else { return false }
        guard maySend(ticket, queuedWrite: id) else {
            await endSend(id, event: .sendAbandoned)
            return false
        }
        return true
    }

    /// A send ended without settling its write: it stays queued.
    func endSend(_ id: UUID, event: WriteLife.Event) async {
        if handle(event, of: id) == .clearInFlightMark {
            _ = try? await store.queue.clearInFlight(id)
        }
    }

    /// The server applied a queued write: it moves to the replay log, laid over each cached list
    /// until that list is fetched again.
    func settleAccepted(_ id: UUID) async {
        guard let entry = queue[id] else { return }
        let table = TableID(entry.mutation)
        // One commit: out of the queue, into the replay log, the table's mark moved to its tick.
        guard let tick = try? await store.replayLog.moveFromQueueAtNewTick(id),
            // A clear may have wiped it meanwhile: then it is gone from the queue already.
            handle(.accepted, of: id) == .forget
        else { return }
        marks.saw(tick, of: table)
        tables.addReplayed(ReplayEntry(tick: Int(tick), mutation: entry.mutation))
        forget(id)
    }

    /// The write leaves the queue and the overlay for good and joins the rejected writes, with
    /// the reason, until the app dismisses it.
    func settleRejected(_ id: UUID, refusal: PostgrestError) async {
        guard let entry = queue[id] else { return }
        let details = RejectionDetails(refusal)
        // `false`: no longer queued (a clear wiped it meanwhile), so nothing joins the rejected.
        guard (try? await store.rejected.add(id, details: details)) == true,
            handle(.rejected, of: id) == .forget
        else { return }
        forget(id)
        rejected.add(RejectedWrite(mutation: entry.mutation, details: details, rejectedAt: Date()))
    }

    /// Queues a write its ticket may no longer send, for its owner; after a clear since the
    /// ticket was taken, throws ``ClientError/cleared`` instead.
    func enqueueUnlessCleared(
        _ mutation: Mutation, ticket: SendTicket, interrupted: Bool = false
    ) async throws -> PendingMutation {
        guard ticket.clearEpoch == ownership.clearEpoch else { throw ClientError.cleared }
        return try await enqueue(mutation, interrupted: interrupted)
    }

    /// Whether a ticket still holds: the client open, no clear since, and the session current
    /// now is the ticket's user. With `queuedWrite`, also that the write is still queued, in
    /// flight, with the ticket's owner (not cleared, settled or claimed).
    func maySend(_ ticket: SendTicket, queuedWrite id: UUID? = nil) -> Bool {
        guard !closed, ownership.holds(ticket, session.value) else { return false }
        return id.map { queue.isInFlight($0, ownedBy: ticket.owner) } ?? true
    }
}
