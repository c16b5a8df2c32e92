import Foundation

extension EngineState {
    /// Appends a write to the durable queue; returns once a crash can no longer lose it, and its
    /// table's facts show it (writes committed together reach them in one value). It joins the
    /// queue and is handed to the store with no `await` between, so the store's order is the
    /// queue's, and a clear wipes exactly the writes handed to the store before it.
    func enqueue(_ mutation: Mutation, interrupted: Bool = false) async throws -> PendingMutation {
        _ = try await enqueue(mutation, interrupted: interrupted, requeuing: false)
        return PendingMutation(mutation, primaryKeys: rules.primaryKeys)
    }

    /// A rejected write put back at the end of its owner's queue by the app, with `values` in
    /// place of its rows when given (an edited retry); `nil` when no rejected write has the id.
    /// It starts afresh: no attempts, and its age counted from now.
    func retryRejected(_ id: UUID, values: [Row]?) async throws -> PendingMutation? {
        guard let rejectedWrite = outputs.rejected.facts.value.all.first(where: { $0.id == id })?.write,
            rejectedWrite.isReadable, queue[id] == nil
        else { return nil }
        var write = rejectedWrite
        if let values { write.rows = values }
        write.attempts = 0
        write.createdAt = Date()
        guard try await enqueue(write, interrupted: false, requeuing: true) else { return nil }
        outputs.rejected.remove(id)
        return PendingMutation(write, primaryKeys: rules.primaryKeys)
    }

    /// Appends `mutation` to the queue and the store: a new write, or (`requeuing`) a rejected
    /// write put back, moved out of the rejected writes in the same transaction; `false` when
    /// there was no such rejected write. The store is called with no `await` before it, so it
    /// keeps the queue's order.
    private func enqueue(_ mutation: Mutation, interrupted: Bool, requeuing: Bool) async throws -> Bool {
        let table = TableID(mutation)
        queue.append(QueueEntry(mutation, interrupted: interrupted))
        // A write sent at once and now queued is shown once: as queued, in its place.
        tables.endShowingAsSent(mutation, owner: overlayOwner, publishing: false)
        tables.append(mutation)
        do {
            if requeuing {
                guard try await store.rejected.requeue(mutation) else {
                    forget(mutation.id)
                    return false
                }
            } else {
                try await store.queue.enqueue(mutation, interrupted: interrupted)
            }
        } catch {
            if handle(.storeFailed, of: mutation.id) == .forget { forget(mutation.id) }
            throw error
        }
        // Counted once on disk: a failed append was never shown (see `WriteQueue.storedCounts`).
        _ = handle(.stored, of: mutation.id)
        publishQueue()
        // An UPDATE may move rows of the table's other lists into a live read that holds only its
        // own: read them first (those reads show their last snapshot meanwhile).
        if mutation.operation == .update, tables.isPartlyLoaded(table) {
            try? await CachedLists.load(of: table, in: self)
        }
        tables.publishAppended(table, owner: overlayOwner)
        outputs.signals.work.fire()
        outputs.events.send(SyncEvent(.writeQueued, mutation))
        return true
    }

    /// Whether the write `id` waits in the queue.
    func isQueued(_ id: UUID) -> Bool {
        queue[id] != nil
    }

    /// The user whose queue is shown now, and the writes they see (theirs and owner-less ones),
    /// oldest first.
    func visibleQueue() -> (owner: String?, ids: [UUID]) {
        let owner = outputs.queue.value.owner
        return (owner, queuedIDs(visibleTo: owner))
    }

    /// The queued writes `owner` sees (theirs and owner-less ones), oldest first.
    func queuedIDs(visibleTo owner: String?) -> [UUID] {
        queue.all.lazy.map(\.mutation).filter { $0.ownerID == nil || $0.ownerID == owner }.map(\.id)
    }

    /// Applies an event to a queued write's life; `.ignore` when it is not queued.
    @discardableResult
    func handle(_ event: WriteLife.Event, of id: UUID) -> WriteLife.Action {
        queue.update(id) { $0.life.handle(event) } ?? .ignore
    }

    /// Takes a write out of the queue and its table's facts.
    func forget(_ id: UUID) {
        guard let mutation = queue.remove(id)?.mutation else { return }
        outputs.departures.left([id])
        tables.remove([mutation], owner: overlayOwner)
        publishQueue()
    }

    /// Takes writes out of the queue and their tables' facts, sending each table's facts once.
    func forget(_ mutations: [Mutation]) {
        let removed = mutations.compactMap { queue.remove($0.id)?.mutation }
        guard !removed.isEmpty else { return }
        outputs.departures.left(removed.map(\.id))
        tables.remove(removed, owner: overlayOwner)
        publishQueue()
    }

    /// A new write made from `draft`: owned by the user signed in now, with its ticket.
    func newWrite(_ draft: Mutation) -> (Mutation, SendTicket) {
        ownership.newWrite(draft, outputs.session.value, gate: outputs.ticketGate.count)
    }

    /// Whether a ticket still holds: the client open, no clear since, and the session current
    /// now is the ticket's user. With `queuedWrite`, also that the write is still queued, in
    /// flight, with the ticket's owner (not cleared, settled or claimed).
    func maySend(_ ticket: SendTicket, queuedWrite id: UUID? = nil) -> Bool {
        guard !closed, ownership.holds(ticket, outputs.session.value) else { return false }
        return id.map { queue.isInFlight($0, ownedBy: ticket.owner) } ?? true
    }
}
