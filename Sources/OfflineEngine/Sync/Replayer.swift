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
    /// The state's facts and signals (the session, the replay's wake-ups, the events).
    let outputs: StateOutputs
    let connectivity: ConnectivityMonitor
    /// How the replay stands, for the sync status; the replay is its one writer.
    let uploads: StateBroadcast<UploadFacts, Never>
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
    /// How many writes one request carries at most.
    var batching = ReplayBatching()

    /// Runs passes until the task is cancelled or the state closes.
    func run() async {
        var failures = 0
        // After a request failed twice in a row, the most writes the next pass's first request
        // carries: a batch that keeps failing goes in halves, so a write at fault (a trigger
        // failing with a 500, a statement timing out) holds back only itself and what follows
        // it, and only it runs out of attempts.
        var firstBatchCap: Int?
        while !Task.isCancelled {
            // Subscribe before the pass, so a signal that arrives during it is not lost, and one
            // from before it (already acted on by this pass) does not cut its wait short.
            let work = outputs.signals.work.stream()
            let urgent = outputs.signals.urgent.stream()
            let settled = outputs.signals.sessionSettled.stream()
            let cameBack = connectivity.networkCameBack()
            let (end, progressed) = await pass(firstBatchAtMost: firstBatchCap)
            if await state.closed { return }
            // Failures are counted in a row, as the refresh counts them: a pass that drained the
            // queue, got a run of writes through, or was held back by the network or the session
            // starts them again.
            if progressed || end == .drained || end == .blocked { (failures, firstBatchCap) = (0, nil) }
            switch end {
            case .drained:
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
            case .retryLater(let after, let writes):
                if failures > 0, writes > 0 {
                    firstBatchCap = max(1, min(writes, firstBatchCap ?? writes) / 2)
                }
                failures += 1
                let delay = max(RetrySchedule.standard.delay(afterFailure: failures), after ?? .zero)
                await Self.waitForSignal([urgent, cameBack], orDelay: delay, clock: clock)
            }
        }
    }

    /// Waits until one of the signals fires or the delay passes, whichever is first: the first
    /// element of the signals merged with a timer. Leaving the merge cancels what still waits.
    private static func waitForSignal(
        _ signals: [AsyncStream<Void>], orDelay delay: Duration?, clock: any Clock<Duration>
    ) async {
        let timer = delay.map { delay in
            AsyncStream<Void>(unfolding: {
                do {
                    try await clock.sleep(for: delay)
                    return ()
                } catch {
                    return nil
                }
            })
        }
        var wakes = merge(signals + (timer.map { [$0] } ?? [])).makeAsyncIterator()
        _ = try? await wakes.next()
    }

    /// Sends queued writes oldest first, for the current user and owner-less ones, a run at a
    /// time, until the queue is drained or something stops the pass; says whether a run went
    /// through whole before that. The pass's first request carries at most `firstBatchAtMost`
    /// writes.
    func pass(firstBatchAtMost: Int? = nil) async -> (end: ReplayPassEnd, progressed: Bool) {
        var progressed = false
        var firstBatchAtMost = firstBatchAtMost
        defer {
            if uploads.value.isUploading { outputs.events.send(SyncEvent(.replayEnded)) }
            uploads.update { $0.isUploading = false }
        }
        while !Task.isCancelled {
            switch await ReplayEvents.nextReplay(in: state) {
            case .blocked:
                return (.blocked, progressed)
            case .drained:
                return (.drained, progressed)
            case .run(let run):
                if !uploads.value.isUploading { outputs.events.send(SyncEvent(.replayStarted)) }
                uploads.update { $0.isUploading = true }
                defer { firstBatchAtMost = nil }
                if let end = await replay(run, firstBatchAtMost: firstBatchAtMost) {
                    return (end, progressed)
                }
                progressed = true
            }
        }
        return (.blocked, progressed)
    }

    /// Sends a run's writes one after another as its ticket says, settling accepted ones while
    /// it goes on; returns why the pass must stop, or `nil` to go on.
    private func replay(_ run: ReplayRun, firstBatchAtMost: Int?) async -> ReplayPassEnd? {
        if let only = run.writes.first, run.writes.count == 1, only.life.mayHaveBeenApplied,
            !primaryKeys.resendIsSafe(only.mutation)
        {
            await ReplayEvents.settleRejected(
                only.mutation.id, refusal: RejectedMutation.mayHaveBeenAppliedRefusal, in: state)
            return nil
        }
        // A write past the attempt cap or the maximum age is rejected, never sent or dropped; the
        // pass picks the run again without it.
        for write in run.writes {
            if let refusal = limits.refusal(for: write.mutation, attempts: write.life.attempts) {
                await ReplayEvents.settleRejected(write.mutation.id, refusal: refusal, in: state)
                return nil
            }
        }
        // A store that cannot commit the attempts is tried again on the schedule, not at once.
        guard let writes = await ReplayEvents.beginSends(run, in: state) else {
            return .retryLater(after: nil, writes: 0)
        }
        let sending = ReplaySending(run: run, accepted: AcceptedWrites())
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await sending.accepted.settle(into: state) }
            let batches = ReplayBatch.batches(
                of: writes, limits: batching, primaryKeys: primaryKeys, firstAtMost: firstBatchAtMost)
            let end =
                batching.tablesInFlight > 1
                ? await sendOverlapping(batches, sending: sending)
                : await send(batches, sending: sending)
            sending.accepted.finish()
            await group.waitForAll()
            return end
        }
    }

    /// Sends the batches of a run one after another in order, until one fails or the ticket no
    /// longer holds; the writes after that are not sent and stay queued.
    private func send(_ batches: [ReplayBatch], sending: ReplaySending) async -> ReplayPassEnd? {
        for (index, batch) in batches.enumerated() {
            if case .stop(let end) = await send(batch, sending: sending) {
                await ReplayEvents.abandonSends(batches[(index + 1)...].flatMap(\.ids), in: state)
                return end
            }
        }
        return nil
    }

    /// How sending a batch ended.
    enum SendEnd: Sendable {
        /// Every write of it is settled: accepted or rejected.
        case settled
        /// The run stops here (its writes not settled are queued again), and the pass with it
        /// when there is a reason.
        case stop(ReplayPassEnd?)
    }

    /// Sends a batch's writes as one request and settles each by the answer; a refused batch is
    /// split until the writes at fault are found and rejected alone.
    func send(_ batch: ReplayBatch, sending: ReplaySending) async -> SendEnd {
        let request = batch.request
        let run = sending.run
        // Whether an earlier batch of the run is still unanswered as this one leaves.
        let overtakes = sending.overtakes
        do {
            // The ticket is checked with no `await` before the request leaves.
            let sent = try await tokens.send(
                for: run.ticket.session, through: transport, mayLeave: { outputs.mayStillSend(run.ticket) },
                request: {
                    try RequestBuilder.request(for: request, endpoint: endpoint, accessToken: $0)
                })
            guard let response = sent else {
                await ReplayEvents.abandonSends(batch.ids, in: state)
                return .stop(nil)
            }
            for write in batch.writes { outputs.events.send(SyncEvent(.writeSent, write.mutation)) }
            // A replay brings nothing back, but the answer must be PostgREST's to settle it.
            let rows = try WriteAnswer.rows(from: response, for: request)
            for id in batch.ids { sending.accepted.add(id, rows: batch.writes.count == 1 ? rows : []) }
            clearLastError()
            return .settled
        } catch let unavailable as TokenUnavailable {
            // Nothing was sent: the writes are plainly queued again, and wait for a token.
            uploads.update { $0.lastError = unavailable.description }
            await ReplayEvents.abandonSends(batch.ids, in: state)
            return .stop(.waitForSession)
        } catch {
            return await settle(batch, after: error, sending: sending, overtook: overtakes)
        }
    }

    /// Settles the writes of a batch whose send failed, as the failure says.
    private func settle(
        _ batch: ReplayBatch, after error: any Error, sending: ReplaySending, overtook: Bool
    ) async -> SendEnd {
        let decision = ReplayDecision.after(
            error, mutation: batch.request, wasAttemptedBefore: batch.wasAttempted,
            mayHaveBeenApplied: batch.mayHaveBeenApplied, classify: classify)
        if decision != .rejected, decision != .deletedByLostAttempt {
            let words = ErrorWording.summary(of: error) ?? "The server could not be reached."
            uploads.update { $0.lastError = words }
        }
        switch decision {
        case .retryLater(let after):
            await endSends(batch.ids, mayHaveBeenApplied: WriteAnswer.mayHaveBeenApplied(after: error))
            return .stop(.retryLater(after: after, writes: batch.writes.count))
        case .waitForSession:
            // The session was refused before anything ran (PostgREST checks the token first):
            // not an attempt, so waiting through refusals never uses up a write's attempts.
            await ReplayEvents.abandonSends(batch.ids, in: state)
            return .stop(.waitForSession)
        case .verifyLostInsert:
            return await verifyLost(batch, after: error, sending: sending, overtook: overtook)
        case .deletedByLostAttempt:
            await ReplayEvents.settleAccepted(batch.ids, in: state)
            clearLastError()
            return .settled
        case .rejected:
            return await reject(batch, for: error, sending: sending, overtook: overtook)
        }
    }

    /// Rejects a refused write, or splits a refused batch to find the writes at fault. A refusal
    /// of a request that overtook an earlier one may be caused by that alone: its writes stay
    /// queued, to go again once everything before them is settled.
    private func reject(
        _ batch: ReplayBatch, for error: any Error, sending: ReplaySending, overtook: Bool
    ) async -> SendEnd {
        if overtook {
            await endSends(batch.ids, mayHaveBeenApplied: false)
            return .stop(nil)
        }
        guard batch.writes.count > 1 else {
            await ReplayEvents.settleRejected(batch.ids[0], refusal: Self.refusal(from: error), in: state)
            return .settled
        }
        let (first, second) = batch.halves
        let end = await send(first, sending: sending)
        guard case .settled = end else {
            await ReplayEvents.abandonSends(second.ids, in: state)
            return end
        }
        return await send(second, sending: sending)
    }

    /// Settles the inserts of a batch whose resend met rows with their keys (409, 23505) after an
    /// earlier attempt: each write whose rows the server holds as sent was applied then; the
    /// others are sent again (split when none was applied, to find a real conflict; a write
    /// alone is rejected). A checking read that fails keeps the unsettled ones queued.
    private func verifyLost(
        _ batch: ReplayBatch, after error: any Error, sending: ReplaySending, overtook: Bool
    ) async -> SendEnd {
        let run = sending.run
        guard await state.maySend(run.ticket, queuedWrite: batch.ids[0]) else {
            await endSends(batch.ids, mayHaveBeenApplied: true)
            return .stop(nil)
        }
        let checks = await lostAnswerChecks(batch.writes.map(\.mutation), ticket: run.ticket)
        guard !checks.contains(.unknown) else {
            await endSends(batch.ids, mayHaveBeenApplied: true)
            return .stop(.retryLater(after: nil, writes: batch.writes.count))
        }
        let applied = zip(batch.ids, checks).filter { $0.1 == .applied }.map(\.0)
        let unsettled = zip(batch.writes, checks).filter { $0.1 == .notApplied }.map(\.0)
        await ReplayEvents.settleAccepted(applied, in: state)
        if !applied.isEmpty { clearLastError() }
        if unsettled.isEmpty { return .settled }
        // The rows of the applied writes met themselves: the others are sent again without them.
        if !applied.isEmpty {
            return await send(ReplayBatch(writes: unsettled), sending: sending)
        }
        return await reject(batch, for: error, sending: sending, overtook: overtook)
    }

    /// Sends that ended without settling their writes: they stay queued.
    private func endSends(_ ids: [UUID], mayHaveBeenApplied: Bool) async {
        for id in ids {
            await ReplayEvents.endSend(
                id, event: .sendEnded(mayHaveBeenApplied: mayHaveBeenApplied), in: state)
        }
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

    /// The server took a write: the failure that stopped an earlier pass no longer stands.
    private func clearLastError() {
        if uploads.value.lastError != nil { uploads.update { $0.lastError = nil } }
    }
}
