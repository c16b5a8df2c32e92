import Foundation

extension Engine {
    /// Runs a write under a policy. See ``WritePolicy``.
    ///
    /// The owner is the user signed in when the call starts. What the request builder refuses
    /// (a table name, a filter it cannot encode) is refused here, online or offline: nothing
    /// that can never be sent is queued.
    func execute(_ draft: Mutation, policy: WritePolicy) async throws -> WriteResult {
        _ = try RequestBuilder.request(for: draft, endpoint: endpoint, accessToken: nil)
        return try await calls.underway {
            // The owner of a write is the session's user: wait for the stored one to be read back.
            await waitForSessionToSettle()
            switch policy {
            case .onlineOnly:
                guard connectivity.current != .offline else { throw ClientError.offline }
                let (mutation, ticket) = await state.newWrite(draft)
                return .sent(try await sendOnlineOnly(mutation, ticket: ticket))
            case .offlineFirst:
                let (mutation, ticket, step) = try await state.firstStep(for: draft)
                switch step {
                case .queued(let pending):
                    return .queued(pending)
                case .send:
                    do {
                        let result = try await sendAtOnce(mutation, ticket: ticket)
                        state.immediateSends.end(for: ticket.owner)
                        return result
                    } catch {
                        state.immediateSends.end(for: ticket.owner)
                        throw error
                    }
                }
            }
        }
    }

    /// Sends an offline-first write at once, as its ticket says; queues it when it is not
    /// settled. If its owner is no longer signed in when the request would leave, it is queued
    /// for them instead, and after a clear it is dropped (`ClientError.cleared`).
    private func sendAtOnce(_ mutation: Mutation, ticket: SendTicket) async throws -> WriteResult {
        let tick = try await state.marks.nextTick()
        guard await state.maySend(ticket) else {
            return .queued(try await state.enqueueUnlessCleared(mutation, ticket: ticket))
        }
        let returned: [Row]
        do {
            returned = try await send(mutation, ticket: ticket)
        } catch  where WriteAnswer.isTransient(error) || ResponseDecoding.isAuthenticationFailure(error) {
            // Not settled: kept in the queue, its attempt counted. A clear that ran meanwhile wiped it.
            var attempted = mutation
            attempted.attempts = 1
            let interrupted = WriteAnswer.mayHaveBeenApplied(after: error)
            return .queued(
                try await state.enqueueUnlessCleared(attempted, ticket: ticket, interrupted: interrupted))
        }
        try await state.patchAccepted(mutation, returned: returned, requestTick: tick)
        return .sent(returned)
    }

    /// Sends an online-only write; an accepted answer that cannot be read throws, and the lists
    /// the write may reach are fetched again, since it may have been applied.
    private func sendOnlineOnly(_ mutation: Mutation, ticket: SendTicket) async throws -> [Row] {
        do {
            return try await send(mutation, ticket: ticket)
        } catch let unreadable as UnexpectedResponseError where (200..<300).contains(unreadable.status) {
            try await state.markStale(TableID(mutation))
            throw unreadable
        }
    }

    /// Sends one write as its ticket says and returns the rows of PostgREST's answer; an answer
    /// that is not PostgREST's throws ``UnexpectedResponseError``.
    private func send(_ mutation: Mutation, ticket: SendTicket) async throws -> [Row] {
        let request = try RequestBuilder.request(
            for: mutation, endpoint: endpoint, accessToken: ticket.accessToken)
        let response = try await transport.send(request)
        return try WriteAnswer.rows(from: response, for: mutation)
    }
}
