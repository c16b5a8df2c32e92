import Foundation

/// The replay's events, run on ``EngineState``'s isolation: a run picked, its attempts begun,
/// its writes settled.
enum ReplayEvents {
    /// The oldest queued writes the signed-in user may send (theirs or owner-less), as a run
    /// under one ticket (see ``ReplayRun``).
    static func nextReplay(in state: isolated EngineState) -> ReplayPick {
        guard !state.closed, state.services.connectivity.current != .offline,
            state.outputs.session.value != .restoring
        else { return .blocked }
        let user = state.outputs.session.value.userID
        let safe = { (entry: QueueEntry) in state.rules.primaryKeys.resendIsSafe(entry.mutation) }
        let entries = state.queue.nextRun(as: user, limit: ReplayRun.limit, joins: safe)
        guard let first = entries.first,
            let ticket = state.ownership.ticket(
                for: first.mutation.ownerID, state.outputs.session.value, gate: state.outputs.ticketGate.count
            )
        else { return .drained }
        // A write a resend could apply twice goes alone, so that nothing else of a run is marked
        // in flight with it (the others joined only if safe).
        let taken = safe(first) ? entries : [first]
        let writes = taken.map { ReplayRun.Write(mutation: $0.mutation, life: $0.life) }
        return .run(ReplayRun(ticket: ticket, writes: writes))
    }

    /// Commits the attempts of a run (in flight, attempts counted) and checks its ticket once
    /// more. Returns the writes to send, in order: the run up to the first that may not be sent;
    /// `nil` when the store could not commit the attempts (nothing may be sent then).
    static func beginSends(_ run: ReplayRun, in state: isolated EngineState) async -> [ReplayRun.Write]? {
        guard let begun = try? await state.store.queue.beginAttempts(run.writes.map(\.mutation.id)) else {
            return nil
        }
        var sending: [ReplayRun.Write] = []
        for write in run.writes {
            let id = write.mutation.id
            guard begun.contains(id) else {
                // The store no longer holds it: forget it, so the pass does not pick it again.
                state.forget(id)
                continue
            }
            guard state.handle(.sendBegan, of: id) != .ignore else { break }
            sending.append(write)
        }
        let sent = Set(sending.map(\.mutation.id))
        let unsent = run.writes.map(\.mutation.id).filter { begun.contains($0) && !sent.contains($0) }
        if !unsent.isEmpty { try? await state.store.queue.abandonAttempts(unsent, clearingMarks: []) }
        guard state.outputs.mayStillSend(run.ticket) else {
            await abandonSends(sending.map(\.mutation.id), in: state)
            return []
        }
        return sending
    }

    /// Attempts begun but never sent: the writes are plainly queued again, in one commit.
    static func abandonSends(_ ids: [UUID], in state: isolated EngineState) async {
        var begun: [UUID] = []
        var clearing = Set<UUID>()
        for id in ids {
            switch state.handle(.sendAbandoned, of: id) {
            case .ignore: continue
            case .clearInFlightMark: clearing.insert(id)
            case .none, .forget: break
            }
            begun.append(id)
        }
        guard !begun.isEmpty else { return }
        try? await state.store.queue.abandonAttempts(begun, clearingMarks: clearing)
    }

    /// A send ended without settling its write: it stays queued.
    static func endSend(_ id: UUID, event: WriteLife.Event, in state: isolated EngineState) async {
        if state.handle(event, of: id) == .clearInFlightMark {
            _ = try? await state.store.queue.clearInFlight(id)
        }
    }

    /// The server applied these queued writes: in one commit they move to the replay log, laid
    /// over each cached list until that list is fetched again. If the commit fails they stay
    /// queued as possibly applied (sending them again cannot apply them twice).
    static func settleAccepted(_ ids: [UUID], returned: [UUID: [Row]] = [:], in state: isolated EngineState)
        async
    {
        guard !ids.isEmpty else { return }
        let moved: (tick: Int64, ids: Set<UUID>)?
        do {
            moved = try await state.store.replayLog.moveFromQueueAtNewTick(ids, returned: returned)
        } catch {
            for id in ids { state.handle(.sendEnded(mayHaveBeenApplied: true), of: id) }
            return
        }
        guard let moved else { return }
        var settled: [Mutation] = []
        for id in ids where moved.ids.contains(id) {
            // A clear may have wiped it meanwhile: then it is gone from the queue already.
            guard let mutation = state.queue[id]?.mutation, state.handle(.accepted, of: id) == .forget else {
                continue
            }
            settled.append(mutation)
        }
        state.tables.addReplayed(settled.map { ReplayEntry(tick: Int(moved.tick), mutation: $0) })
        let now = Date()
        state.outputs.queue.update { $0.lastSyncedAt = now }
        let touched = Set(settled.map(TableID.init))
        for table in touched { state.outputs.marks.saw(moved.tick, of: table) }
        state.forget(settled)
        for mutation in settled { state.outputs.events.send(SyncEvent(.writeAccepted, mutation)) }
        // A table whose queue drained: its live reads fetch again, so columns the server fills
        // in and effects the overlay could not work out show without the app asking.
        for table in touched where state.tables.queuedCount(of: table) == 0 {
            state.services.liveReads.markStale(table: table)
        }
        // A table whose queue did not drain: only the lists a synced UPDATE could not move a row
        // into fetch again (only an UPDATE moves rows, so no other settlement asks which reads run).
        let updated = Set(settled.lazy.filter { $0.operation == .update }.map(TableID.init))
        for table in updated where state.tables.queuedCount(of: table) > 0 {
            let due = state.tables.listsDueForFetch(
                of: table, among: state.services.liveReads.queries(of: table).map(\.canonicalKey),
                settled: settled.filter { TableID($0) == table }, owner: state.overlayOwner,
                primaryKeys: state.rules.primaryKeys)
            state.services.liveReads.markStale(keys: due)
        }
    }

    /// The write leaves the queue and the overlay for good and joins the rejected writes, with
    /// the reason, until the app dismisses it.
    static func settleRejected(_ id: UUID, refusal: PostgrestError, in state: isolated EngineState) async {
        guard let entry = state.queue[id] else { return }
        let details = RejectionDetails(refusal)
        // `false`: no longer queued (a clear wiped it meanwhile), so nothing joins the rejected.
        // Unreadable stored bytes are kept as what could be read (the write's columns), so
        // that the rejected writes can be read back at the next open.
        let replacement = entry.mutation.isReadable ? nil : entry.mutation.persistedData()
        guard (try? await state.store.rejected.add(id, details: details, storing: replacement)) == true,
            state.handle(.rejected, of: id) == .forget
        else { return }
        state.forget(id)
        state.outputs.rejected.add(
            RejectedWrite(mutation: entry.mutation, details: details, rejectedAt: Date()))
        state.outputs.events.send(SyncEvent(.writeRejected(code: refusal.code), entry.mutation))
    }
}
