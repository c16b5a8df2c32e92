import Foundation

extension Engine {
    /// Runs a write under a policy. See ``WritePolicy``.
    ///
    /// The owner is the user signed in when the call starts. What the request builder refuses
    /// (a table name, a filter it cannot encode) is refused here, online or offline: nothing
    /// that can never be sent is queued.
    /// `options` (a count, one row) shape the request sent at once; they are not kept in the
    /// queue. With `rowsAsWritten`, a queued write comes back with its rows as the device shows
    /// them (``WrittenRows``).
    func execute(_ draft: Mutation, policy: WritePolicy, options: WriteOptions = WriteOptions()) async throws
        -> ExecutedWrite
    {
        let draft = configuration.fillingDeviceValues(draft, at: configuration.now())
        try RequestBuilder.check(draft, endpoint: endpoint)
        return try await calls.underway {
            // The owner of a write is the session's user: wait for the stored one to be read back.
            await waitForSessionToSettle()
            switch policy {
            case .onlineOnly:
                guard connectivity.current != .offline else { throw ClientError.offline }
                let (mutation, ticket) = await state.newWrite(draft)
                let answer = try await sendOnlineOnly(mutation, ticket: ticket, options: options)
                return ExecutedWrite(result: .sent(answer.rows), count: answer.count, rows: answer.rows)
            case .offlineFirst:
                let (mutation, ticket, step) = try await ImmediateSendEvents.firstStep(for: draft, in: state)
                switch step {
                case .queued(let pending):
                    return await queuedOutcome(mutation, pending: pending, options: options)
                case .send:
                    // Whether it settled or threw, it no longer shows as sent, and the next write
                    // of its owner may go.
                    let sent: Result<ExecutedWrite, any Error>
                    do {
                        sent = .success(try await sendAtOnce(mutation, ticket: ticket, options: options))
                    } catch {
                        sent = .failure(error)
                    }
                    await ImmediateSendEvents.endSending(mutation, in: state)
                    immediateSends.end(for: ticket.owner)
                    return try sent.get()
                }
            }
        }
    }

    /// Sends an offline-first write at once, as its ticket says; queues it when it is not
    /// settled. If its owner is no longer signed in when the request would leave, it is queued
    /// for them instead, and after a clear it is dropped (`ClientError.cleared`).
    private func sendAtOnce(_ mutation: Mutation, ticket: SendTicket, options: WriteOptions) async throws
        -> ExecutedWrite
    {
        let tick = outputs.marks.nextTick()
        // Asks for the server's rows when the lists read columns it did not send (an id the
        // server makes): the app still gets only what it asked for.
        var sending = mutation
        if await CachedLists.needsServerRows(mutation, in: state) { sending.returning = "*" }
        let answer: (asked: Mutation, rows: [Row], count: Int?)
        do {
            guard let sent = try await sendAskingRows(sending, as: mutation, ticket: ticket, options: options)
            else {
                let pending = try await ImmediateSendEvents.enqueueUnlessCleared(
                    mutation, ticket: ticket, in: state)
                return await queuedOutcome(mutation, pending: pending, options: options)
            }
            answer = sent
        } catch is TokenUnavailable {
            // Never sent: queued as it is, to go once a token comes.
            let pending = try await ImmediateSendEvents.enqueueUnlessCleared(
                mutation, ticket: ticket, in: state)
            return await queuedOutcome(mutation, pending: pending, options: options)
        } catch let conflict as PostgrestError where conflict.code == RejectedMutation.conflictCode {
            // Nothing was written: the lists fetch again to show what the server holds.
            try? await CachedLists.markStale(TableID(mutation), in: state)
            throw conflict
        } catch  where ReplayDecision.keepsQueued(after: error, classify: configuration.classifyFailure) {
            // Not settled: kept in the queue, its attempt counted. A clear that ran meanwhile wiped it.
            var attempted = mutation
            attempted.attempts = 1
            let interrupted = WriteAnswer.mayHaveBeenApplied(after: error)
            let pending = try await ImmediateSendEvents.enqueueUnlessCleared(
                attempted, ticket: ticket, interrupted: interrupted, in: state)
            return await queuedOutcome(mutation, pending: pending, options: options)
        }
        outputs.events.send(SyncEvent(.writeAccepted, mutation))
        try await Answers.patchAccepted(answer.asked, returned: answer.rows, requestTick: tick, in: state)
        let rows = mutation.returning == nil ? [] : answer.rows
        return ExecutedWrite(result: .sent(rows), count: answer.count, rows: rows)
    }

    /// Sends `sending` (`write` asking for its rows); when row-level security refuses to show the
    /// rows (an insert-only table: no read policy), PostgreSQL applied nothing, and `write` goes
    /// as the app made it. Returns the answer and the write it answers.
    private func sendAskingRows(
        _ sending: Mutation, as write: Mutation, ticket: SendTicket, options: WriteOptions
    ) async throws -> (asked: Mutation, rows: [Row], count: Int?)? {
        do {
            return try await send(sending, ticket: ticket, options: options).map {
                (sending, $0.rows, $0.count)
            }
        } catch let refusal as PostgrestError
            where sending.returning != write.returning && refusal.code == "42501"
        {
            return try await send(write, ticket: ticket, options: options).map { (write, $0.rows, $0.count) }
        }
    }

    /// A queued write's outcome: with its rows as the device shows them when they are asked for,
    /// and their number as its count.
    private func queuedOutcome(_ mutation: Mutation, pending: PendingMutation, options: WriteOptions) async
        -> ExecutedWrite
    {
        guard options.rowsAsWritten else {
            return ExecutedWrite(result: .queued(pending), count: nil, rows: [])
        }
        let table = TableID(mutation)
        try? await CachedLists.load(of: table, in: state)
        let facts = await state.currentFacts(of: table)
        let rows = WrittenRows.rows(of: mutation, facts: facts, primaryKeys: primaryKeys)
        return ExecutedWrite(
            result: .queued(pending), count: options.count == nil ? nil : rows.count, rows: rows)
    }

    /// Sends an online-only write; an accepted answer that cannot be read throws, and the lists
    /// the write may reach are fetched again, since it may have been applied.
    private func sendOnlineOnly(_ mutation: Mutation, ticket: SendTicket, options: WriteOptions) async throws
        -> WriteAnswer.Answer
    {
        do {
            // The owner signed out or was replaced while the token was asked for: not sent.
            guard let answer = try await send(mutation, ticket: ticket, options: options) else {
                throw TokenUnavailable(.otherUser)
            }
            return answer
        } catch let unreadable as UnexpectedResponseError where (200..<300).contains(unreadable.status) {
            try await CachedLists.markStale(TableID(mutation), in: state)
            throw unreadable
        }
    }

    /// Sends one write as its ticket says and returns PostgREST's answer; `nil` when the ticket no
    /// longer held. The ticket is checked without the actor, as the replay checks its own, so a
    /// clear or a sign-in cannot run between the check and the request leaving. An answer that
    /// is not PostgREST's throws ``UnexpectedResponseError``.
    private func send(_ mutation: Mutation, ticket: SendTicket, options: WriteOptions) async throws
        -> WriteAnswer.Answer?
    {
        let sent = try await tokens.send(
            for: ticket.session, through: transport, mayLeave: { outputs.mayStillSend(ticket) },
            request: {
                try RequestBuilder.request(
                    for: mutation, endpoint: endpoint, accessToken: $0, options: options)
            })
        guard let response = sent else { return nil }
        outputs.events.send(SyncEvent(.writeSent, mutation))
        return WriteAnswer.Answer(
            rows: try WriteAnswer.rows(from: response, for: mutation),
            count: ResponseDecoding.count(from: response))
    }
}
