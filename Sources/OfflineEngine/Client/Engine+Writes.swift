import Foundation
import Streams

extension Engine {
    /// Runs a write under a policy. See ``WritePolicy``.
    func execute(_ draft: Mutation, policy: WritePolicy) async throws -> WriteResult {
        try await underway {
            // The owner of a write is the session's user: wait for the stored one to be read back.
            await waitForSessionToSettle()
            var mutation = draft
            mutation.ownerID = currentUser
            mutation.createdAt = Date()
            switch policy {
            case .onlineOnly:
                guard connectivity.current != .offline else { throw ClientError.offline }
                return .sent(try await send(mutation))
            case .offlineFirst:
                return try await executeOfflineFirst(mutation)
            }
        }
    }

    /// Sends at once when nothing of the owner's waits and the network is not known down, else
    /// queues. A write never overtakes an earlier one of its owner: while one is being sent at
    /// once, later ones wait for it to end (sent, or queued ahead of them).
    private func executeOfflineFirst(_ mutation: Mutation) async throws -> WriteResult {
        let owner = mutation.ownerID
        while (immediateInFlight[owner] ?? 0) > 0 {
            await withCheckedContinuation { immediateWaiters[owner, default: []].append($0) }
        }
        let mustQueue =
            closed || connectivity.current == .offline || session.value == .restoring
            || queue.contains { $0.mutation.ownerID == owner }
        if mustQueue {
            return .queued(try await enqueue(mutation))
        }
        immediateInFlight[owner, default: 0] += 1
        defer { endImmediate(owner) }
        let tick: Int64
        let returned: [Row]
        do {
            tick = try await nextTick()
            returned = try await send(mutation)
        } catch let unreadable as UnexpectedResponseError where (200..<300).contains(unreadable.status) {
            // The server applied the write but its answer cannot be read: the caller hears why,
            // and the lists the write may reach are fetched again.
            try await markStale(TableID(mutation))
            throw unreadable
        } catch  where Self.shouldQueue(afterImmediateFailure: error) {
            return .queued(try await enqueue(mutation))
        }
        try await patchAccepted(mutation, returned: returned, requestTick: tick)
        return .sent(returned)
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

    /// A transport failure, a retryable status or an expired session queues a write that was
    /// being sent at once; any other refusal is the caller's to see.
    static func shouldQueue(afterImmediateFailure error: any Error) -> Bool {
        ResponseDecoding.isRetryable(error) || ResponseDecoding.isAuthenticationFailure(error)
    }

    /// Appends a write to the durable queue; returns once a crash can no longer lose it. The
    /// write shows in every list at once, before it is on disk.
    ///
    /// Joining the in-memory queue and handing the append to the store happen with no `await`
    /// between them, so the store's order is the queue's order, and a clear wipes exactly the
    /// writes handed to the store before it (see `clearLocalData()`). Live reads have loaded
    /// their table's lists already, which is all the overlay needs here.
    func enqueue(_ mutation: Mutation) async throws -> PendingMutation {
        let table = TableID(mutation)
        queue.append(QueuedEntry(mutation: mutation, durable: false))
        publishQueuedSoon(table)
        do {
            try await store.enqueue(mutation)
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

    /// Sends one write and returns the rows the server sent back.
    func send(_ mutation: Mutation) async throws -> [Row] {
        let request = try RequestBuilder.request(for: mutation, endpoint: endpoint, accessToken: accessToken)
        let response = try await transport.send(request)
        if response.isSuccess, response.body.isEmpty { return [] }
        return try ResponseDecoding.rows(from: response)
    }

    /// Lays a write the server accepted at once into every cached list of its table (or marks
    /// them stale where its effect cannot be worked out), and moves the table's mark forward.
    func patchAccepted(_ mutation: Mutation, returned: [Row], requestTick: Int64) async throws {
        guard requestTick >= clearedAt, requestTick >= ownerChangedAt, !closed else { return }
        let table = TableID(mutation)
        try await loadLists(of: table)
        let keys = lists.keys.filter { lists[$0].map { TableID($0.list.query) == table } ?? false }.sorted()
        let uncached = live.values.filter { TableID($0.query) == table && lists[$0.key] == nil }
        let result = overlay.patch(
            mutation, returned: mutation.returning == nil ? nil : returned,
            into: keys.compactMap { lists[$0]?.list }, uncachedReads: uncached.map(\.query))
        let tick = try await advanceMark(of: table)
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
            rejectedWrites.send(rejected)
        }
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
