import Foundation

extension Engine {
    /// Wakes the replay loop: `urgent` (the network came back, the session changed) also cuts a
    /// retry wait short; a new write only wakes an idle loop.
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
            // Subscribe before the pass, so a signal that arrives during it is not lost.
            let work = replayWork.stream()
            let urgent = replayUrgent.stream()
            let settled = sessionSettled.stream()
            let end = await replayPass()
            switch end {
            case .drained:
                failures = 0
                await Self.waitForSignal([work, urgent], orDelay: nil, clock: configuration.clock)
            case .blocked:
                await Self.waitForSignal([urgent], orDelay: nil, clock: configuration.clock)
            case .waitForSession:
                // The session was refused: only a change of session (not the network) may help.
                await Self.waitForSignal([settled], orDelay: nil, clock: configuration.clock)
            case .retryLater(let after):
                failures += 1
                let scheduled = RetrySchedule.standard.delay(afterFailure: failures)
                let delay = max(scheduled, after ?? .zero)
                await Self.waitForSignal([urgent], orDelay: delay, clock: configuration.clock)
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
            guard
                let entry = queue.first(where: { $0.mutation.applies(to: user) })
            else { return .drained }
            guard entry.durable else { return .drained }
            let end = await replay(entry.mutation)
            if let end { return end }
        }
    }

    /// Sends one queued write and settles it; returns why the pass must stop, or `nil` to go on.
    private func replay(_ queued: Mutation) async -> ReplayPassEnd? {
        let id = queued.id
        let attemptedBefore = queued.attempts > 0 || store.interruptedWrites.contains(id)
        do {
            _ = try await store.markInFlight(id)
            _ = try await store.recordAttempt(id)
        } catch {
            return .retryLater(after: nil)
        }
        setAttempts(of: id) { $0 + 1 }
        do {
            // A replay brings nothing back: any 2xx means the server applied the write, whatever
            // its body says.
            let request = try RequestBuilder.request(
                for: queued, endpoint: endpoint, accessToken: accessToken)
            let response = try await transport.send(request)
            guard response.isSuccess else { throw ResponseDecoding.failure(for: response) }
            await settleAccepted(id)
            return nil
        } catch {
            switch ReplayDecision.after(error, mutation: queued, wasAttemptedBefore: attemptedBefore) {
            case .accepted:
                await settleAccepted(id)
                return nil
            case .retryLater(let after):
                _ = try? await store.clearInFlight(id)
                return .retryLater(after: after)
            case .waitForSession:
                _ = try? await store.clearInFlight(id)
                return .waitForSession
            case .verifyLostInsert:
                if await serverHolds(queued) {
                    await settleAccepted(id)
                } else {
                    await settleRejected(id, error: error)
                }
                return nil
            case .rejected:
                await settleRejected(id, error: error)
                return nil
            }
        }
    }

    private func setAttempts(of id: UUID, _ change: (Int) -> Int) {
        guard let index = queue.firstIndex(where: { $0.mutation.id == id }) else { return }
        queue[index].mutation.attempts = change(queue[index].mutation.attempts)
    }

    /// Whether the server's rows under the insert's keys hold what was sent (the insert was
    /// applied and its answer lost).
    private func serverHolds(_ insert: Mutation) async -> Bool {
        let keyColumns = primaryKeys.columns(for: insert.table)
        for row in insert.rows {
            guard let key = primaryKeys.key(of: row, in: insert.table) else { return false }
            var query = QueryDescription(schema: insert.schema, table: insert.table)
            for (column, value) in zip(keyColumns, key.values) {
                query.filters.append(
                    .condition(FilterCondition(column: column, op: .eq, operand: .value(value))))
            }
            guard let (rows, _) = try? await fetchFromServer(query), let stored = rows.first else {
                return false
            }
            for (column, value) in row.values where !Self.sameValue(stored[column], value) {
                return false
            }
        }
        return true
    }

    private static func sameValue(_ stored: JSONValue?, _ sent: JSONValue) -> Bool {
        guard let stored else { return false }
        if stored == sent { return true }
        if case .string(let left) = stored, case .string(let right) = sent {
            return RowKey.normalised(text: left) == RowKey.normalised(text: right)
        }
        if case .number(let left) = stored, case .number(let right) = sent {
            return left.decimalValue != nil && left.decimalValue == right.decimalValue
        }
        return false
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

    /// The server refused a queued write for good: it leaves the queue and the overlay and joins
    /// the rejected writes, with the server's reason, until the app dismisses it.
    private func settleRejected(_ id: UUID, error: any Error) async {
        guard let index = queue.firstIndex(where: { $0.mutation.id == id }) else { return }
        let mutation = queue[index].mutation
        let refusal = Self.refusal(from: error)
        let details = RejectionDetails(
            status: refusal.status, code: refusal.code, message: refusal.message, details: refusal.details,
            hint: refusal.hint)
        do {
            try await store.reject(id, details: details)
        } catch {
            return
        }
        queue.removeAll { $0.mutation.id == id }
        rejected.append(
            rejectedMutation(from: RejectedWrite(mutation: mutation, details: details, rejectedAt: Date())))
        rejectedWrites.send(rejected)
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
