import Foundation

extension Engine {
    /// Wakes the replay loop: `urgent` (the session changed) also cuts a retry wait short; a new
    /// write only wakes an idle loop. The network coming back wakes it through the monitor.
    func wakeReplay(urgent: Bool) {
        replayWork.fire()
        if urgent { replayUrgent.fire() }
    }

    /// Replays the queue for as long as the client is open: a pass whenever there is work, and
    /// after a transient failure, a wait on the refresh schedule that the network coming back
    /// or the session settling cuts short.
    func runReplayLoop() async {
        var failures = 0
        while !Task.isCancelled && !closed {
            // Subscribe before the pass, so a signal that arrives during it is not lost, and one
            // from before it (already acted on by this pass) does not cut its wait short.
            let work = replayWork.stream()
            let urgent = replayUrgent.stream()
            let settled = sessionSettled.stream()
            let cameBack = connectivity.networkCameBack()
            let end = await replayPass()
            switch end {
            case .drained:
                failures = 0
                await Self.waitForSignal([work, urgent, cameBack], orDelay: nil, clock: configuration.clock)
            case .blocked:
                await Self.waitForSignal([urgent, cameBack], orDelay: nil, clock: configuration.clock)
            case .waitForSession:
                // The session was refused: only a change of session (not the network) may help.
                await Self.waitForSignal([settled], orDelay: nil, clock: configuration.clock)
            case .retryLater(let after):
                failures += 1
                let scheduled = RetrySchedule.standard.delay(afterFailure: failures)
                let delay = max(scheduled, after ?? .zero)
                await Self.waitForSignal([urgent, cameBack], orDelay: delay, clock: configuration.clock)
            }
        }
    }

    /// Waits until one of the signals fires or the delay passes, whichever is first.
    private static func waitForSignal(
        _ signals: [AsyncStream<Void>], orDelay delay: Duration?, clock: any Clock<Duration>
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for signal in signals {
                group.addTask {
                    for await _ in signal { return }
                }
            }
            if let delay {
                group.addTask { try? await clock.sleep(for: delay) }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Sends queued writes oldest first, for the current user and owner-less ones, until the
    /// queue is drained or something stops the pass.
    func replayPass() async -> ReplayPassEnd {
        while true {
            guard !closed, !Task.isCancelled else { return .blocked }
            guard connectivity.current != .offline, session.value != .restoring else { return .blocked }
            let user = currentUser
            guard let entry = queue.first(where: { $0.mutation.applies(to: user) }), entry.durable,
                let ticket = ticket(for: entry.mutation.ownerID)
            else { return .drained }
            if let end = await replay(entry, ticket: ticket) { return end }
        }
    }

    /// Sends one queued write as its ticket says and settles it; returns why the pass must stop,
    /// or `nil` to go on.
    private func replay(_ entry: QueuedEntry, ticket: SendTicket) async -> ReplayPassEnd? {
        let queued = entry.mutation
        let id = queued.id
        if entry.mayHaveBeenApplied, !resendIsSafe(queued) {
            await settleRejected(id, refusal: RejectedMutation.mayHaveBeenAppliedRefusal)
            return nil
        }
        let begun: Bool
        do {
            begun = try await store.beginAttempt(id)
        } catch {
            return .retryLater(after: nil)
        }
        // Immediately before sending, with no await until the transport has the request: the
        // owner is still the one signed in, no clear ran, and the write is still queued.
        guard begun, maySend(ticket, queuedWrite: id) else {
            if begun, !entry.mayHaveBeenApplied { _ = try? await store.clearInFlight(id) }
            if !begun { dropFromQueue(id) }
            return nil
        }
        update(id) { $0.mutation.attempts += 1 }
        do {
            let request = try RequestBuilder.request(
                for: queued, endpoint: endpoint, accessToken: ticket.accessToken)
            let response = try await transport.send(request)
            // A replay brings nothing back, but the answer must be PostgREST's to settle it.
            _ = try WriteAnswer.rows(from: response, for: queued)
            await settleAccepted(id)
            return nil
        } catch {
            return await settle(
                entry, after: error, attemptedBefore: queued.attempts > 0 || entry.mayHaveBeenApplied,
                ticket: ticket)
        }
    }

    /// Settles a write whose send failed, as the failure says.
    private func settle(
        _ entry: QueuedEntry, after error: any Error, attemptedBefore: Bool, ticket: SendTicket
    ) async -> ReplayPassEnd? {
        let id = entry.mutation.id
        switch ReplayDecision.after(error, mutation: entry.mutation, wasAttemptedBefore: attemptedBefore) {
        case .retryLater(let after):
            if WriteAnswer.mayHaveBeenApplied(after: error) {
                update(id) { $0.mayHaveBeenApplied = true }
            } else if !entry.mayHaveBeenApplied {
                _ = try? await store.clearInFlight(id)
            }
            return .retryLater(after: after)
        case .waitForSession:
            if !entry.mayHaveBeenApplied { _ = try? await store.clearInFlight(id) }
            return .waitForSession
        case .verifyLostInsert:
            guard maySend(ticket, queuedWrite: id) else { return nil }
            switch await lostAnswerCheck(entry.mutation, ticket: ticket) {
            case .applied: await settleAccepted(id)
            case .notApplied: await settleRejected(id, refusal: Self.refusal(from: error))
            case .unknown: return .retryLater(after: nil)
            }
            return nil
        case .rejected:
            await settleRejected(id, refusal: Self.refusal(from: error))
            return nil
        }
    }

    /// Whether sending a write again cannot apply it twice: an update or delete lands on the
    /// same rows, and an insert or upsert whose every row carries its key meets its own row
    /// (a 409 that the lost-answer check reads, or a merge). A keyless insert would add a row.
    private func resendIsSafe(_ mutation: Mutation) -> Bool {
        switch mutation.operation {
        case .update, .delete:
            return true
        case .insert, .upsert:
            let columns = mutation.onConflict ?? primaryKeys.columns(for: mutation.table)
            return mutation.rows.allSatisfy { row in
                columns.allSatisfy { column in row[column].map { !$0.isNull } ?? false }
            }
        }
    }

    private func update(_ id: UUID, _ change: (inout QueuedEntry) -> Void) {
        guard let index = queue.firstIndex(where: { $0.mutation.id == id }) else { return }
        change(&queue[index])
    }

    /// Forgets a write the store no longer holds, so the pass does not pick it again.
    private func dropFromQueue(_ id: UUID) {
        guard let index = queue.firstIndex(where: { $0.mutation.id == id }) else { return }
        let table = TableID(queue[index].mutation)
        queue.remove(at: index)
        publish(table)
        publishQueueCount()
    }

    /// The server applied a queued write: it leaves the queue for the replay log, which keeps it
    /// over each cached list until that list is fetched again.
    private func settleAccepted(_ id: UUID) async {
        guard let index = queue.firstIndex(where: { $0.mutation.id == id }) else { return }
        let mutation = queue[index].mutation
        let table = TableID(mutation)
        do {
            let tick = try await advanceMark(of: table)
            _ = try await store.moveToReplayLog(id, tick: tick)
            // A clear may have wiped it meanwhile: then it is gone from the queue already.
            guard queue.contains(where: { $0.mutation.id == id }) else { return }
            queue.removeAll { $0.mutation.id == id }
            var entries = replayLog[table] ?? []
            entries.append(ReplayEntry(tick: Int(tick), mutation: mutation))
            replayLog[table] = ReplayLog.capped(entries)
        } catch {
            return
        }
        publish(table)
        publishQueueCount()
    }

    /// The write leaves the queue and the overlay for good and joins the rejected writes, with
    /// the reason, until the app dismisses it.
    private func settleRejected(_ id: UUID, refusal: PostgrestError) async {
        guard let index = queue.firstIndex(where: { $0.mutation.id == id }) else { return }
        let mutation = queue[index].mutation
        let details = RejectionDetails(
            status: refusal.status, code: refusal.code, message: refusal.message, details: refusal.details,
            hint: refusal.hint)
        // `false`: no longer queued (a clear wiped it meanwhile), so nothing joins the rejected.
        guard (try? await store.reject(id, details: details)) == true,
            queue.contains(where: { $0.mutation.id == id })
        else { return }
        queue.removeAll { $0.mutation.id == id }
        rejected.append(
            rejectedMutation(from: RejectedWrite(mutation: mutation, details: details, rejectedAt: Date())))
        publishRejected()
        publish(TableID(mutation))
        publishQueueCount()
    }

    private static func refusal(from error: any Error) -> PostgrestError {
        if let refusal = error as? PostgrestError { return refusal }
        if let unexpected = error as? UnexpectedResponseError {
            return PostgrestError(
                status: unexpected.status, code: nil, message: unexpected.description, details: nil, hint: nil
            )
        }
        return PostgrestError(
            status: 0, code: nil, message: ErrorWording.summary(of: error) ?? "\(type(of: error))",
            details: nil, hint: nil)
    }
}
