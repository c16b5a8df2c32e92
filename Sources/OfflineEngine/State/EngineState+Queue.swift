import Foundation

extension EngineState {
    /// Appends a write to the durable queue; returns once a crash can no longer lose it. The
    /// write reaches its table's facts once its append committed, before the call returns;
    /// writes whose appends committed together (the store's group commit) reach them in one
    /// facts value, so readers are not woken once per write.
    ///
    /// Joining the in-memory queue and handing the append to the store happen with no `await`
    /// between them, so the store's order is the queue's order, and a clear wipes exactly the
    /// writes handed to the store before it (see `clearLocalData()`).
    func enqueue(_ mutation: Mutation, interrupted: Bool = false) async throws -> PendingMutation {
        let table = TableID(mutation)
        queue.append(
            QueueEntry(
                mutation: mutation, life: WriteLife(attempts: mutation.attempts, interrupted: interrupted)))
        tables.append(mutation)
        countQueued(mutation.ownerID, by: 1)
        do {
            try await store.queue.enqueue(mutation, interrupted: interrupted)
        } catch {
            if handle(.storeFailed, of: mutation.id) == .forget { forget(mutation.id) }
            throw error
        }
        _ = handle(.stored, of: mutation.id)
        tables.publishAppended(table, owner: overlayOwner)
        replayWork.fire()
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
        countQueued(mutation.ownerID, by: -1)
    }

    /// Whether `owner` has a write in the queue.
    func hasQueued(for owner: String?) -> Bool {
        (queueFacts.value.counts[owner] ?? 0) > 0
    }

    // MARK: Writes sent at once

    /// What becomes of a new offline-first write.
    enum FirstStep: Sendable {
        /// Queued (offline, the session restoring, or an earlier write of its owner waits).
        case queued(PendingMutation)
        /// To be sent now; ``endImmediate(_:)`` must follow.
        case send
    }

    /// A new write made from `draft`: owned by the user signed in now, with its ticket.
    func newWrite(_ draft: Mutation) -> (Mutation, SendTicket) {
        let ticket = ticketForNewWrite()
        var mutation = draft
        mutation.ownerID = ticket.owner
        mutation.createdAt = Date()
        return (mutation, ticket)
    }

    /// Makes a new offline-first write from `draft` (see ``newWrite(_:)``), and queues it or lets
    /// it be sent at once. A write never overtakes an earlier one of its owner: while one is
    /// being sent at once, this waits for it to end (sent, or queued ahead of this one).
    func firstStep(for draft: Mutation) async throws -> (Mutation, SendTicket, FirstStep) {
        let (mutation, ticket) = newWrite(draft)
        let owner = ticket.owner
        while (immediateSends.value[owner] ?? 0) > 0 {
            for await sends in immediateSends.values() where (sends[owner] ?? 0) == 0 { break }
            if closed { break }
        }
        guard ticket.clearEpoch == clearEpoch else { throw ClientError.cleared }
        if closed || connectivity.current == .offline || session.value == .restoring || hasQueued(for: owner)
        {
            return (mutation, ticket, .queued(try await enqueue(mutation)))
        }
        immediateSends.update { $0[owner, default: 0] += 1 }
        return (mutation, ticket, .send)
    }

    /// A write sent at once has ended; the next write of its owner may go.
    func endImmediate(_ owner: String?) {
        immediateSends.update { sends in
            let count = (sends[owner] ?? 1) - 1
            sends[owner] = count > 0 ? count : nil
        }
    }

    // MARK: Replay

    /// The oldest queued write of the signed-in user (or owner-less) with a ticket to send it,
    /// or `nil` when none may be sent now: `blocked` says why.
    func nextReplay() -> ReplayPick {
        guard !closed else { return .blocked }
        guard connectivity.current != .offline, session.value != .restoring else { return .blocked }
        let user = session.value.userID
        guard let entry = queue.first(where: { $0.mutation.applies(to: user) }), entry.life.isReadyToSend,
            let ticket = ticket(for: entry.mutation.ownerID)
        else { return .drained }
        return .write(entry.mutation, entry.life, ticket)
    }

    /// Commits a send's attempt (in flight, attempts counted) and checks its ticket once more,
    /// with no `await` between the check and the return. `false`: do not send.
    func beginSend(_ id: UUID, ticket: SendTicket) async -> Bool {
        let begun: Bool
        do {
            begun = try await store.queue.beginAttempt(id)
        } catch {
            return false
        }
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

    /// The server applied a queued write: it leaves the queue for the replay log, which keeps it
    /// over each cached list until that list is fetched again.
    func settleAccepted(_ id: UUID) async {
        guard let entry = queue[id] else { return }
        let table = TableID(entry.mutation)
        do {
            let tick = try await advanceMark(of: table)
            _ = try await store.replayLog.moveFromQueue(id, tick: tick)
            // A clear may have wiped it meanwhile: then it is gone from the queue already.
            guard handle(.accepted, of: id) == .forget else { return }
            tables.addReplayed(ReplayEntry(tick: Int(tick), mutation: entry.mutation))
            forget(id)
        } catch {
            return
        }
    }

    /// The write leaves the queue and the overlay for good and joins the rejected writes, with
    /// the reason, until the app dismisses it.
    func settleRejected(_ id: UUID, refusal: PostgrestError) async {
        guard let entry = queue[id] else { return }
        let details = RejectionDetails(
            status: refusal.status, code: refusal.code, message: refusal.message, details: refusal.details,
            hint: refusal.hint)
        // `false`: no longer queued (a clear wiped it meanwhile), so nothing joins the rejected.
        guard (try? await store.rejected.add(id, details: details)) == true,
            handle(.rejected, of: id) == .forget
        else { return }
        forget(id)
        let rejected = RejectedMutation(
            RejectedWrite(mutation: entry.mutation, details: details, rejectedAt: Date()),
            primaryKeys: primaryKeys)
        rejectedFacts.update { $0.all.append(rejected) }
    }

    /// Dismisses a rejected write the app has shown.
    func dismissRejected(_ id: UUID) async throws {
        _ = try await store.rejected.dismiss(id)
        rejectedFacts.update { $0.all.removeAll { $0.id == id } }
    }
}

/// What a replay pass may send next.
enum ReplayPick: Sendable {
    /// This write, as this ticket says; its life as it stood when picked.
    case write(Mutation, WriteLife, SendTicket)
    /// Nothing of the signed-in user's is ready to send.
    case drained
    /// Nothing may be sent now (offline, the session restoring, or closed).
    case blocked
}

extension EngineState {
    /// Queues a write its ticket may no longer send, for its owner; after a clear since the
    /// ticket was taken, throws ``ClientError/cleared`` instead.
    func enqueueUnlessCleared(
        _ mutation: Mutation, ticket: SendTicket, interrupted: Bool = false
    ) async throws -> PendingMutation {
        guard ticket.clearEpoch == clearEpoch else { throw ClientError.cleared }
        return try await enqueue(mutation, interrupted: interrupted)
    }
}
