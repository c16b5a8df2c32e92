import Foundation
import Streams

/// Replays the queue for as long as the client is open: a pass whenever there is work, and after
/// a transient failure, a wait on the refresh schedule that the network coming back or the
/// session settling cuts short.
///
/// Writes are picked in runs (``ReplayRun``) with a ``SendTicket`` (their owner and the session
/// they go out with) and sent as the ticket says; before each request leaves, the ticket is
/// checked once more with no `await` between the check and the send.
struct Replayer: Sendable {
    let state: EngineState
    let endpoint: RESTEndpoint
    let transport: RetryingTransport
    let reads: ServerReads
    let tokens: SessionTokens
    let primaryKeys: PrimaryKeys
    let clock: any Clock<Duration>
    /// The app's classes of PostgREST's refusals.
    let classify: FailureClassifier
    /// The attempt cap and the maximum age past which a write is rejected, not sent.
    let limits: WriteLimits

    /// Runs passes until the task is cancelled or the state closes.
    func run() async {
        var failures = 0
        while !Task.isCancelled {
            // Subscribe before the pass, so a signal that arrives during it is not lost, and one
            // from before it (already acted on by this pass) does not cut its wait short.
            let work = state.signals.work.stream()
            let urgent = state.signals.urgent.stream()
            let settled = state.signals.sessionSettled.stream()
            let cameBack = state.connectivity.networkCameBack()
            let end = await pass()
            if await state.closed { return }
            switch end {
            case .drained:
                failures = 0
                await Self.waitForSignal([work, urgent, cameBack], orDelay: nil, clock: clock)
            case .blocked:
                await Self.waitForSignal([urgent, cameBack], orDelay: nil, clock: clock)
            case .waitForSession where tokens.canRefresh:
                // The token provider may have a token later (its auth refreshes when it can): ask
                // again on the schedule, and when the network comes back.
                failures += 1
                let delay = RetrySchedule.standard.delay(afterFailure: failures)
                await Self.waitForSignal([settled, urgent, cameBack], orDelay: delay, clock: clock)
            case .waitForSession:
                // The session was refused: only a change of session (not the network) may help.
                await Self.waitForSignal([settled], orDelay: nil, clock: clock)
            case .retryLater(let after):
                failures += 1
                let delay = max(RetrySchedule.standard.delay(afterFailure: failures), after ?? .zero)
                await Self.waitForSignal([urgent, cameBack], orDelay: delay, clock: clock)
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

    /// Sends queued writes oldest first, for the current user and owner-less ones, a run at a
    /// time, until the queue is drained or something stops the pass.
    func pass() async -> ReplayPassEnd {
        defer {
            if state.uploads.value.isUploading { state.events.send(SyncEvent(.replayEnded)) }
            state.uploads.update { $0.isUploading = false }
        }
        while !Task.isCancelled {
            switch await state.nextReplay() {
            case .blocked:
                return .blocked
            case .drained:
                return .drained
            case .run(let run):
                if !state.uploads.value.isUploading { state.events.send(SyncEvent(.replayStarted)) }
                state.uploads.update { $0.isUploading = true }
                if let end = await replay(run) { return end }
            }
        }
        return .blocked
    }

    /// Sends a run's writes one after another as its ticket says, settling accepted ones while
    /// it goes on; returns why the pass must stop, or `nil` to go on.
    private func replay(_ run: ReplayRun) async -> ReplayPassEnd? {
        if let only = run.writes.first, run.writes.count == 1, only.life.mayHaveBeenApplied,
            !primaryKeys.resendIsSafe(only.mutation)
        {
            await state.settleRejected(only.mutation.id, refusal: RejectedMutation.mayHaveBeenAppliedRefusal)
            return nil
        }
        // A write past the attempt cap or the maximum age is rejected, never sent or dropped; the
        // pass picks the run again without it.
        for write in run.writes {
            if let refusal = limits.refusal(for: write.mutation, attempts: write.life.attempts) {
                await state.settleRejected(write.mutation.id, refusal: refusal)
                return nil
            }
        }
        // A store that cannot commit the attempts is tried again on the schedule, not at once.
        guard let writes = await state.beginSends(run) else { return .retryLater(after: nil) }
        let accepted = AcceptedWrites()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await accepted.settle(into: state) }
            let end = await send(writes, of: run, acceptingInto: accepted)
            accepted.finish()
            await group.waitForAll()
            return end
        }
    }

    /// Sends the begun writes of a run in order until one fails or the ticket no longer holds;
    /// the writes after that are not sent and stay queued.
    private func send(
        _ writes: [ReplayRun.Write], of run: ReplayRun, acceptingInto accepted: AcceptedWrites
    ) async -> ReplayPassEnd? {
        for (index, write) in writes.enumerated() {
            let mutation = write.mutation
            do {
                // The ticket is checked with no `await` before the request leaves.
                let sent = try await tokens.send(
                    for: run.ticket.session, through: transport, mayLeave: { state.mayStillSend(run) },
                    request: {
                        try RequestBuilder.request(for: mutation, endpoint: endpoint, accessToken: $0)
                    })
                guard let response = sent else {
                    await state.abandonSends(writes[index...].map(\.mutation.id))
                    return nil
                }
                state.events.send(SyncEvent(.writeSent, mutation))
                // A replay brings nothing back, but the answer must be PostgREST's to settle it.
                let rows = try WriteAnswer.rows(from: response, for: mutation)
                accepted.add(mutation.id, rows: rows)
            } catch let unavailable as TokenUnavailable {
                // Nothing was sent: the writes are plainly queued again, and wait for a token.
                state.uploads.update { $0.lastError = unavailable.description }
                await state.abandonSends(writes[index...].map(\.mutation.id))
                return .waitForSession
            } catch {
                await state.abandonSends(writes[(index + 1)...].map(\.mutation.id))
                return await settle(
                    mutation, after: error, wasAttempted: write.life.wasAttempted, ticket: run.ticket)
            }
        }
        return nil
    }

    /// Settles a write whose send failed, as the failure says.
    private func settle(
        _ mutation: Mutation, after error: any Error, wasAttempted: Bool, ticket: SendTicket
    ) async -> ReplayPassEnd? {
        let id = mutation.id
        let decision = ReplayDecision.after(
            error, mutation: mutation, wasAttemptedBefore: wasAttempted, classify: classify)
        if decision != .rejected {
            let words = ErrorWording.summary(of: error) ?? "The server could not be reached."
            state.uploads.update { $0.lastError = words }
        }
        switch decision {
        case .retryLater(let after):
            await state.endSend(
                id, event: .sendEnded(mayHaveBeenApplied: WriteAnswer.mayHaveBeenApplied(after: error)))
            return .retryLater(after: after)
        case .waitForSession:
            await state.endSend(id, event: .sendEnded(mayHaveBeenApplied: false))
            return .waitForSession
        case .verifyLostInsert:
            guard await state.maySend(ticket, queuedWrite: id) else {
                await state.endSend(id, event: .sendEnded(mayHaveBeenApplied: true))
                return nil
            }
            switch await lostAnswerCheck(mutation, ticket: ticket) {
            case .applied: await state.settleAccepted([id])
            case .notApplied: await state.settleRejected(id, refusal: Self.refusal(from: error))
            case .unknown:
                await state.endSend(id, event: .sendEnded(mayHaveBeenApplied: true))
                return .retryLater(after: nil)
            }
            return nil
        case .rejected:
            await state.settleRejected(id, refusal: Self.refusal(from: error))
            return nil
        }
    }

    /// Reads the rows under an insert's keys with the write's own session (row-level security
    /// shows the owner's rows only) and compares them with what was sent.
    private func lostAnswerCheck(_ insert: Mutation, ticket: SendTicket) async -> LostAnswerCheck {
        let keyColumns = primaryKeys.columns(for: insert.table)
        for row in insert.sentRows {
            guard let key = primaryKeys.key(of: row, in: insert.table) else { return .notApplied }
            var query = QueryDescription(schema: insert.schema, table: insert.table)
            for (column, value) in zip(keyColumns, key.values) {
                query.filters.append(
                    .condition(FilterCondition(column: column, op: .eq, operand: .value(value))))
            }
            let stored: Row
            do {
                guard let first = try await reads.fetch(query, as: ticket.session).first else {
                    return .notApplied
                }
                stored = first
            } catch {
                return .unknown
            }
            for (column, value) in row.values
            where LostAnswerCheck.provablyDiffers(
                stored: stored[column], sent: value, isKey: keyColumns.contains(column))
            {
                return .notApplied
            }
        }
        return .applied
    }

    private static func refusal(from error: any Error) -> PostgrestError {
        if let refusal = error as? PostgrestError { return refusal }
        if let unreadable = error as? StoredWriteUnreadable {
            return PostgrestError(
                status: 0, code: RejectedMutation.unreadableCode, message: unreadable.description,
                details: nil,
                hint: nil)
        }
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
