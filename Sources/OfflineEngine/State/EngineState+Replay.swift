import Foundation

/// The replay pass's events: a run picked, its attempts begun, its writes settled.
extension EngineState {
    /// The oldest queued writes the signed-in user may send (theirs or owner-less), as a run
    /// under one ticket (see ``ReplayRun``).
    func nextReplay() -> ReplayPick {
        guard !closed, connectivity.current != .offline, session.value != .restoring else { return .blocked }
        let user = session.value.userID
        let safe = { (entry: QueueEntry) in self.primaryKeys.resendIsSafe(entry.mutation) }
        let entries = queue.nextRun(as: user, limit: ReplayRun.limit, joins: safe)
        guard let first = entries.first,
            let ticket = ownership.ticket(for: first.mutation.ownerID, session.value, gate: ticketGate.count)
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
    func beginSends(_ run: ReplayRun) async -> [ReplayRun.Write]? {
        guard let begun = try? await store.queue.beginAttempts(run.writes.map(\.mutation.id)) else {
            return nil
        }
        var sending: [ReplayRun.Write] = []
        for write in run.writes {
            let id = write.mutation.id
            guard begun.contains(id) else {
                // The store no longer holds it: forget it, so the pass does not pick it again.
                forget(id)
                continue
            }
            guard handle(.sendBegan, of: id) != .ignore else { break }
            sending.append(write)
        }
        let sent = Set(sending.map(\.mutation.id))
        let unsent = run.writes.map(\.mutation.id).filter { begun.contains($0) && !sent.contains($0) }
        if !unsent.isEmpty { try? await store.queue.abandonAttempts(unsent, clearingMarks: []) }
        guard mayStillSend(run.ticket) else {
            await abandonSends(sending.map(\.mutation.id))
            return []
        }
        return sending
    }

    /// Whether a ticket still holds (no clear, close or hand-over since it was taken, and the
    /// same user signed in), checked without the actor so that nothing can change between the
    /// check and the request leaving: a replay run's, or a write's sent at once.
    nonisolated func mayStillSend(_ ticket: SendTicket) -> Bool {
        ticketGate.count == ticket.gate && session.value.authSession?.userID == ticket.session?.userID
    }

    /// Attempts begun but never sent: the writes are plainly queued again, in one commit.
    func abandonSends(_ ids: [UUID]) async {
        var begun: [UUID] = []
        var clearing = Set<UUID>()
        for id in ids {
            switch handle(.sendAbandoned, of: id) {
            case .ignore: continue
            case .clearInFlightMark: clearing.insert(id)
            case .none, .forget: break
            }
            begun.append(id)
        }
        guard !begun.isEmpty else { return }
        try? await store.queue.abandonAttempts(begun, clearingMarks: clearing)
    }

    /// A send ended without settling its write: it stays queued.
    func endSend(_ id: UUID, event: WriteLife.Event) async {
        if handle(event, of: id) == .clearInFlightMark {
            _ = try? await store.queue.clearInFlight(id)
        }
    }

    /// The server applied these queued writes: in one commit they move to the replay log, laid
    /// over each cached list until that list is fetched again. If the commit fails they stay
    /// queued as possibly applied (sending them again cannot apply them twice).
    func settleAccepted(_ ids: [UUID], returned: [UUID: [Row]] = [:]) async {
        guard !ids.isEmpty else { return }
        let moved: (tick: Int64, ids: Set<UUID>)?
        do {
            moved = try await store.replayLog.moveFromQueueAtNewTick(ids, returned: returned)
        } catch {
            for id in ids { handle(.sendEnded(mayHaveBeenApplied: true), of: id) }
            return
        }
        guard let moved else { return }
        var settled: [Mutation] = []
        for id in ids where moved.ids.contains(id) {
            // A clear may have wiped it meanwhile: then it is gone from the queue already.
            guard let mutation = queue[id]?.mutation, handle(.accepted, of: id) == .forget else { continue }
            settled.append(mutation)
        }
        tables.addReplayed(settled.map { ReplayEntry(tick: Int(moved.tick), mutation: $0) })
        let now = Date()
        uploads.update {
            $0.lastSyncedAt = now
            $0.lastError = nil
        }
        let touched = Set(settled.map(TableID.init))
        for table in touched { marks.saw(moved.tick, of: table) }
        forget(settled)
        for mutation in settled { events.send(SyncEvent(.writeAccepted, mutation)) }
        // A table whose queue drained: its live reads fetch again, so columns the server fills
        // in and effects the overlay could not work out show without the app asking.
        for table in touched where tables.queuedCount(of: table) == 0 {
            liveReads.markStale(table: table, reason: .write)
        }
    }

    /// The write leaves the queue and the overlay for good and joins the rejected writes, with
    /// the reason, until the app dismisses it.
    func settleRejected(_ id: UUID, refusal: PostgrestError) async {
        guard let entry = queue[id] else { return }
        let details = RejectionDetails(refusal)
        // `false`: no longer queued (a clear wiped it meanwhile), so nothing joins the rejected.
        // Unreadable stored bytes are kept as what could be read (the write's columns), so
        // that the rejected writes can be read back at the next open.
        let replacement = entry.mutation.isReadable ? nil : entry.mutation.persistedData()
        guard (try? await store.rejected.add(id, details: details, storing: replacement)) == true,
            handle(.rejected, of: id) == .forget
        else { return }
        forget(id)
        rejected.add(RejectedWrite(mutation: entry.mutation, details: details, rejectedAt: Date()))
        events.send(SyncEvent(.writeRejected(code: refusal.code), entry.mutation))
    }
}
