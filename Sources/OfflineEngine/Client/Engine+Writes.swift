import Foundation
import Streams

extension Engine {
    /// Runs a write under a policy. See ``WritePolicy``.
    ///
    /// The owner is the user signed in when the call starts. What the request builder refuses
    /// (a table name, a filter it cannot encode) is refused here, online or offline: nothing
    /// that can never be sent is queued.
    func execute(_ draft: Mutation, policy: WritePolicy) async throws -> WriteResult {
        _ = try RequestBuilder.request(for: draft, endpoint: endpoint, accessToken: nil)
        return try await underway {
            // The owner of a write is the session's user: wait for the stored one to be read back.
            await waitForSessionToSettle()
            let ticket = ticketForNewWrite()
            var mutation = draft
            mutation.ownerID = ticket.owner
            mutation.createdAt = Date()
            switch policy {
            case .onlineOnly:
                guard connectivity.current != .offline else { throw ClientError.offline }
                return .sent(try await sendOnlineOnly(mutation, ticket: ticket))
            case .offlineFirst:
                return try await executeOfflineFirst(mutation, ticket: ticket)
            }
        }
    }

    /// Sends at once when nothing of the owner's waits and the network is not known down, else
    /// queues. A write never overtakes an earlier one of its owner: while one is being sent at
    /// once, later ones wait for it to end (sent, or queued ahead of them).
    ///
    /// The send carries the session of the user the write was made by, fixed before the first
    /// `await`; if that user is no longer signed in when the request would leave, the write is
    /// queued for them instead, and after a clear it is dropped (`ClientError.cleared`).
    private func executeOfflineFirst(_ mutation: Mutation, ticket: SendTicket) async throws -> WriteResult {
        let owner = ticket.owner
        while (immediateInFlight[owner] ?? 0) > 0 {
            await withCheckedContinuation { immediateWaiters[owner, default: []].append($0) }
        }
        guard ticket.clearEpoch == clearEpoch else { throw ClientError.cleared }
        let mustQueue =
            closed || connectivity.current == .offline || session.value == .restoring
            || queue.contains { $0.mutation.ownerID == owner }
        if mustQueue {
            return .queued(try await enqueue(mutation))
        }
        immediateInFlight[owner, default: 0] += 1
        defer { endImmediate(owner) }
        let tick = try await nextTick()
        guard maySend(ticket) else {
            guard ticket.clearEpoch == clearEpoch else { throw ClientError.cleared }
            return .queued(try await enqueue(mutation))
        }
        let returned: [Row]
        do {
            returned = try await send(mutation, ticket: ticket)
        } catch  where WriteAnswer.isTransient(error) || ResponseDecoding.isAuthenticationFailure(error) {
            // Not settled: kept in the queue. A clear that ran meanwhile wiped it.
            guard ticket.clearEpoch == clearEpoch else { throw ClientError.cleared }
            var attempted = mutation
            attempted.attempts = 1
            let interrupted = WriteAnswer.mayHaveBeenApplied(after: error)
            return .queued(try await enqueue(attempted, interrupted: interrupted))
        }
        try await patchAccepted(mutation, returned: returned, requestTick: tick)
        return .sent(returned)
    }

    /// Sends an online-only write; an accepted answer that cannot be read throws, and the lists
    /// the write may reach are fetched again, since it may have been applied.
    private func sendOnlineOnly(_ mutation: Mutation, ticket: SendTicket) async throws -> [Row] {
        do {
            return try await send(mutation, ticket: ticket)
        } catch let unreadable as UnexpectedResponseError where (200..<300).contains(unreadable.status) {
            try await markStale(TableID(mutation))
            throw unreadable
        }
    }

    /// Marks every cached list of a table stale, refusing answers that left before now; live
    /// reads of it fetch again.
    func markStale(_ table: TableID) async throws {
        try await advanceMark(of: table)
        for (key, entry) in lists where TableID(entry.list.query) == table {
            lists[key]?.isStale = true
        }
        for read in live.values where TableID(read.query) == table {
            read.refresher.markStale(.write)
        }
    }

    private func endImmediate(_ owner: String?) {
        immediateInFlight[owner, default: 1] -= 1
        guard immediateInFlight[owner] == 0 else { return }
        immediateInFlight[owner] = nil
        let waiters = immediateWaiters.removeValue(forKey: owner) ?? []
        for waiter in waiters { waiter.resume() }
    }

    /// Appends a write to the durable queue; returns once a crash can no longer lose it. The
    /// write shows in every list at once, before it is on disk.
    ///
    /// Joining the in-memory queue and handing the append to the store happen with no `await`
    /// between them, so the store's order is the queue's order, and a clear wipes exactly the
    /// writes handed to the store before it (see `clearLocalData()`). Live reads have loaded
    /// their table's lists already, which is all the overlay needs here.
    func enqueue(_ mutation: Mutation, interrupted: Bool = false) async throws -> PendingMutation {
        let table = TableID(mutation)
        queue.append(QueuedEntry(mutation: mutation, durable: false, mayHaveBeenApplied: interrupted))
        publishQueuedSoon(table)
        do {
            try await store.enqueue(mutation, interrupted: interrupted)
        } catch {
            queue.removeAll { $0.mutation.id == mutation.id }
            publish(table)
            publishQueueCount()
            throw error
        }
        // Readers have the write by the time the call returns (a no-op when already published).
        publishQueued()
        if let index = queue.firstIndex(where: { $0.mutation.id == mutation.id }) {
            queue[index].durable = true
        }
        wakeReplay(urgent: false)
        return PendingMutation(mutation, primaryKeys: primaryKeys)
    }

    /// Sends one write as its ticket says and returns the rows of PostgREST's answer; an answer
    /// that is not PostgREST's throws ``UnexpectedResponseError``.
    func send(_ mutation: Mutation, ticket: SendTicket) async throws -> [Row] {
        let request = try RequestBuilder.request(
            for: mutation, endpoint: endpoint, accessToken: ticket.accessToken)
        let response = try await transport.send(request)
        return try WriteAnswer.rows(from: response, for: mutation)
    }

    /// Lays a write the server accepted at once into every cached list of its table (or marks
    /// them stale where its effect cannot be worked out), and moves the table's mark forward.
    func patchAccepted(_ mutation: Mutation, returned: [Row], requestTick: Int64) async throws {
        let table = TableID(mutation)
        try await loadLists(of: table)
        let tick = try await advanceMark(of: table)
        // After the awaits, with none until the lists are patched: a clear or a new owner since the
        // request left wins, and the patch is laid over the lists as they are now.
        guard requestTick >= clearedAt, requestTick >= ownerChangedAt, !closed else { return }
        let keys = lists.keys.filter { lists[$0].map { TableID($0.list.query) == table } ?? false }.sorted()
        let uncached = live.values.filter { TableID($0.query) == table && lists[$0.key] == nil }
        let result = overlay.patch(
            mutation, returned: mutation.returning == nil ? nil : returned,
            into: keys.compactMap { lists[$0]?.list }, uncachedReads: uncached.map(\.query))
        var changed = [StoredList]()
        for (key, patch) in zip(keys, result.lists) {
            apply(patch, to: key, query: lists[key]?.list.query, tick: tick, changed: &changed)
        }
        for (read, patch) in zip(uncached, result.uncachedReads) {
            apply(patch, to: read.key, query: read.query, tick: tick, changed: &changed)
        }
        if !changed.isEmpty { try await store.saveLists(changed) }
        publish(table)
    }

    private func apply(
        _ patch: ListPatch, to key: String, query: QueryDescription?, tick: Int64, changed: inout [StoredList]
    ) {
        guard let query else { return }
        switch patch {
        case .unchanged:
            return
        case .rows(let rows):
            var entry =
                lists[key]
                ?? ListEntry(
                    list: CachedList(query: query, rows: [], fetchTick: Int(tick)), fetchedAt: nil,
                    isStale: false)
            entry.list.rows = rows
            lists[key] = entry
            changed.append(
                StoredList(
                    key: key, schema: query.schema, table: query.table, rows: rows,
                    fetchedAt: entry.fetchedAt ?? Date(timeIntervalSince1970: 0),
                    mark: Int64(entry.list.fetchTick), isStale: entry.isStale))
        case .stale:
            lists[key]?.isStale = true
            live[key]?.refresher.markStale(.write)
        }
    }

    // MARK: Pending writes

    /// The table's pending writes for the current user, as a state stream.
    func pendingBroadcast(for table: TableID) -> StateBroadcastOfPending {
        if let existing = pendingByTable[table] { return existing }
        let broadcast = StateBroadcastOfPending(pending(of: table))
        pendingByTable[table] = broadcast
        return broadcast
    }

    func pending(of table: TableID) -> [PendingMutation] {
        OverlayWrites.applying(queue.map(\.mutation), ownerID: overlayOwner)
            .filter { TableID($0) == table }
            .map { PendingMutation($0, primaryKeys: primaryKeys) }
    }

    func publishPending(_ table: TableID) {
        guard let broadcast = pendingByTable[table] else { return }
        let value = pending(of: table)
        if broadcast.value != value { broadcast.send(value) }
    }

    func publishQueueCount() {
        let owner = overlayOwner
        let count = queue.count { $0.mutation.applies(to: owner) }
        if pendingCount.value != count { pendingCount.send(count) }
    }

    /// Dismisses a rejected write the app has shown.
    func dismissRejected(_ id: UUID) async throws {
        try await underway {
            _ = try await store.dismissRejected(id)
            rejected.removeAll { $0.id == id }
            publishRejected()
        }
    }

    /// Publishes the rejected writes the current user may see: their own and owner-less ones.
    func publishRejected() {
        let owner = overlayOwner
        let visible = rejected.filter { $0.ownerID == nil || $0.ownerID == owner }
        if rejectedWrites.value != visible { rejectedWrites.send(visible) }
    }

    func rejectedMutation(from write: RejectedWrite) -> RejectedMutation {
        let pending = PendingMutation(write.mutation, primaryKeys: primaryKeys)
        return RejectedMutation(
            id: write.mutation.id, table: write.mutation.table, operation: write.mutation.operation,
            rowKeys: pending.rowKeys, ownerID: write.mutation.ownerID, createdAt: write.mutation.createdAt,
            rejectedAt: write.rejectedAt,
            error: PostgrestError(
                status: write.details.status, code: write.details.code, message: write.details.message,
                details: write.details.details, hint: write.details.hint))
    }
}

typealias StateBroadcastOfPending = StateBroadcast<[PendingMutation], Never>
