import Foundation
import Streams

extension Engine {
    // MARK: Live reads

    /// Joins the live read of `query`, starting it (and its refresh) for the first reader.
    func attach(_ query: QueryDescription) async throws -> StateBroadcast<QuerySnapshot, Never> {
        try await underway {
            let key = query.canonicalKey
            if live[key] == nil {
                try await loadLists(of: TableID(query))
            }
            // Another reader may have started the read while the lists loaded.
            if live[key] == nil {
                let refresher = makeRefresher(for: key)
                let initial = QuerySnapshot(
                    result: nil, isFromCache: true, fetchedAt: nil, hasPendingMutations: false,
                    refresh: .refreshing)
                live[key] = LiveRead(
                    key: key, query: query, snapshots: StateBroadcast(initial), refresher: refresher,
                    readers: 0, refresh: .refreshing, answered: false)
                publish(key)
                background.run { await refresher.run() }
            }
            live[key]?.readers += 1
            guard let read = live[key] else { throw ClientError.closed }
            return read.snapshots
        }
    }

    /// Leaves the live read; the last reader to leave stops its refresh.
    func detach(_ key: String) {
        guard var read = live[key] else { return }
        read.readers -= 1
        if read.readers > 0 {
            live[key] = read
            return
        }
        read.refresher.stop()
        live[key] = nil
        folds[key] = nil
    }

    private func makeRefresher(for key: String) -> Refresher {
        let environment = RefreshEnvironment(
            clock: configuration.clock, connectivity: connectivity,
            sessionRestoring: { [session] in session.value == .restoring },
            sessionSettled: { [sessionSettled] in sessionSettled.stream() },
            summarize: { error in ErrorWording.summary(of: error) })
        return Refresher(
            environment: environment,
            fetch: { [weak self] in
                guard let self else { throw CancellationError() }
                return try await self.refreshFetch(key)
            },
            report: { [weak self] state in
                await self?.refreshReported(state, for: key)
            })
    }

    /// Publishes a live read's refresh state, and with it the rows its own attempt wrote, which
    /// were held back for this report (see `applyAnswer`): one snapshot, not "refreshing, new
    /// rows" then "idle, the same rows". Reports arrive in order, awaited by the refresh.
    func refreshReported(_ state: RefreshState, for key: String) {
        guard var read = live[key] else { return }
        read.refresh = state
        read.awaitsReport = false
        live[key] = read
        publish(key)
    }

    /// One refresh attempt: fetch, then write what may be written.
    func refreshFetch(_ key: String) async throws -> FetchOutcome {
        guard let read = live[key] else { throw CancellationError() }
        return try await underway {
            let (rows, tick) = try await fetchFromServer(read.query)
            return try await applyAnswer(rows, query: read.query, requestTick: tick, answering: key)
        }
    }

    /// Sends a read with transport retries off (a dead network shows at once), returning the rows
    /// and the tick read before the request left.
    func fetchFromServer(_ query: QueryDescription) async throws -> ([Row], Int64) {
        try await fetchFromServer(query, accessToken: accessToken)
    }

    /// The same, with a token fixed by the caller (a write's own session, for its checks).
    func fetchFromServer(_ query: QueryDescription, accessToken token: String?) async throws -> ([Row], Int64)
    {
        let tick = try await nextTick()
        var request = try RequestBuilder.request(for: query, endpoint: endpoint, accessToken: token)
        request.retriesTransportFailures = false
        let response = try await transport.send(request)
        return (try ResponseDecoding.rows(from: response), tick)
    }

    /// Writes an answer to the cache unless a rule of the refresh lifecycle refuses it. The
    /// answer of a live read's own refresh (`answering`) reaches that read's readers with the
    /// state the refresh then reports; the table's other reads are published at once.
    func applyAnswer(
        _ rows: [Row], query: QueryDescription, requestTick tick: Int64, answering: String? = nil
    ) async throws -> FetchOutcome {
        let table = TableID(query)
        if closed { return .refused(askAgain: false) }
        // While a clear waits for the store, every answer is refused; the clear marks the reads
        // stale, so they ask again with the signed-out session.
        if clearedAt == .max { return .refused(askAgain: true) }
        if tick < clearedAt { return .refused(askAgain: false) }
        if tick < ownerChangedAt { return .refused(askAgain: true) }
        if tick < (try await mark(of: table)) { return .refused(askAgain: true) }
        if rows.isEmpty, configuration.responseTrust == .authenticatedSessionOnly, currentUser == nil {
            return .emptyButUntrusted
        }
        let key = query.canonicalKey
        let entry = ListEntry(
            list: CachedList(query: query, rows: rows, fetchTick: Int(tick)), fetchedAt: Date(),
            isStale: false)
        try await store.saveList(
            StoredList(
                key: key, schema: query.schema, table: query.table, rows: rows,
                fetchedAt: entry.fetchedAt ?? Date(), mark: tick, isStale: false))
        // The store's await let other calls run: a clear or a new owner since then wins.
        if tick < clearedAt {
            return .refused(askAgain: clearedAt == .max)
        }
        if tick < ownerChangedAt || tick < (marks[table] ?? 0) {
            return .refused(askAgain: true)
        }
        lists[key] = entry
        live[key]?.answered = true
        try await retireReplayed(of: table)
        if let answering { live[answering]?.awaitsReport = true }
        publish(table)
        return .applied
    }

    // MARK: One-shot reads

    /// Fetches once and returns the rows with the overlay; offline or failing, returns what the
    /// cache holds, and throws only when it holds nothing. The result says where the rows came
    /// from and whether a queued write changed them, as a snapshot does.
    func fetchOnce(_ query: QueryDescription) async throws -> FetchResult {
        try await underway {
            try await loadLists(of: TableID(query))
            await waitForSessionToSettle()
            var answered = false
            do {
                guard connectivity.current != .offline else { throw ClientError.offline }
                let (rows, tick) = try await fetchFromServer(query)
                answered = try await applyAnswer(rows, query: query, requestTick: tick) == .applied
            } catch {
                // Neither the server nor the cache can answer.
                if lists[query.canonicalKey] == nil { throw error }
            }
            let composed = composeRows(query)
            return FetchResult(
                result: QueryResult(rows: composed.rows), isFromCache: !answered,
                fetchedAt: lists[query.canonicalKey]?.fetchedAt,
                hasPendingMutations: composed.hasPendingMutations)
        }
    }

    // MARK: Composing snapshots

    /// The writes laid over a table's lists now: the current user's (and owner-less) queued
    /// writes to it, oldest first, and theirs in its replay log. Built once per change of the table and
    /// shared by all its lists.
    struct TableWrites {
        var queued: [Mutation]
        var replayed: [ReplayEntry]
        /// Whether an UPDATE is among them: only an UPDATE can move rows of the table's other
        /// lists into a list, so only then are those rows indexed.
        var hasUpdates: Bool
    }

    func tableWrites(_ table: TableID) -> TableWrites {
        let owner = overlayOwner
        var hasUpdates = false
        let queued = queue.compactMap { entry -> Mutation? in
            let mutation = entry.mutation
            guard TableID(mutation) == table, mutation.applies(to: owner) else {
                return nil
            }
            if mutation.operation == .update { hasUpdates = true }
            return mutation
        }
        // Replayed writes belong to their owner like queued ones: never laid over for another.
        let replayed = (replayLog[table] ?? []).filter { $0.mutation.applies(to: owner) }
        if replayed.contains(where: { $0.mutation.operation == .update }) { hasUpdates = true }
        return TableWrites(queued: queued, replayed: replayed, hasUpdates: hasUpdates)
    }

    /// The rows of `query`: its cached rows with the writes that apply laid over them (the
    /// list's unseen replayed writes, then the queued ones). A live read keeps its fold, so a
    /// change that only queued more writes lays just those.
    func composeRows(_ query: QueryDescription, key: String? = nil, writes: TableWrites? = nil)
        -> OverlayResult
    {
        let key = key ?? query.canonicalKey
        let table = TableID(query)
        let writes = writes ?? tableWrites(table)
        // Taken out of the dictionary while it grows, so the fold is not copied on write. A fold
        // made before any UPDATE was queued left the other lists' rows out.
        if var fold = folds.removeValue(forKey: key), fold.holdsOtherLists || !writes.hasUpdates,
            fold.extend(to: writes.queued)
        {
            let result = fold.result
            folds[key] = fold
            return result
        }
        let list = lists[key]?.list ?? CachedList(query: query, rows: [], fetchTick: 0)
        let others =
            writes.hasUpdates
            ? lists.values.compactMap { entry -> CachedList? in
                guard TableID(entry.list.query) == table, entry.list.query.canonicalKey != key else {
                    return nil
                }
                return entry.list
            } : []
        let unseen = ReplayLog.unseen(writes.replayed, fetchTick: list.fetchTick).map(\.mutation)
        let fold = OverlayFold<FilterEvaluator>(
            list: list, otherLists: others, primaryKeys: primaryKeys, replayed: unseen, queued: writes.queued)
        if live[key] != nil { folds[key] = fold }
        return fold.result
    }

    /// Recomputes and publishes the snapshot of one live read (equal snapshots are not sent).
    func publish(_ key: String, writes: TableWrites? = nil) {
        guard let read = live[key], !read.awaitsReport else { return }
        let entry = lists[key]
        let composed = composeRows(read.query, key: key, writes: writes)
        let hasRows = entry != nil || !composed.rows.isEmpty
        let snapshot = QuerySnapshot(
            result: hasRows ? QueryResult(rows: composed.rows) : nil,
            isFromCache: !read.answered || entry == nil,
            fetchedAt: entry?.fetchedAt,
            hasPendingMutations: composed.hasPendingMutations,
            refresh: read.refresh)
        if read.snapshots.value != snapshot {
            read.snapshots.send(snapshot)
        }
        if composed.refetchIsDue { fetchAgainForSyncedWrite(key) }
    }

    /// A write that has synced would have moved into a live read's list a row read with other
    /// columns (another list's `select("id,done")` row into a `select()` list, say); such a row
    /// never joins the list, which is marked stale and fetched again instead.
    ///
    /// The fetch waits until the write has synced: while it is queued the server does not hold it,
    /// so a fetch could not show the row, and offline it would only pause. Until then the list
    /// shows its rows without that row. A refresh that is not Idle fetches again anyway (its answer
    /// is refused if its request left before the write synced), so only an Idle one is woken, once.
    private func fetchAgainForSyncedWrite(_ key: String) {
        guard let read = live[key], let entry = lists[key], !entry.isStale,
            read.refresher.state == .idle
        else { return }
        lists[key]?.isStale = true
        read.refresher.markStale(.write)
    }

    /// Republishes every live read of a table, and the table's pending writes.
    func publish(_ table: TableID) {
        publish(table, onlyQueuedMore: false)
    }

    /// Republishes a table after a change; `onlyQueuedMore` says the change only added writes
    /// to the end of the queue, so the live reads' folds still hold and take just those.
    func publish(_ table: TableID, onlyQueuedMore: Bool) {
        let reads = live.filter { TableID($0.value.query) == table }
        if !onlyQueuedMore {
            for key in reads.keys { folds[key] = nil }
        }
        queuedSincePublish.remove(table)
        if !reads.isEmpty {
            let writes = tableWrites(table)
            for key in reads.keys { publish(key, writes: writes) }
        }
        publishPending(table)
    }

    /// Publishes a table whose only change is writes added to the queue, soon: writes queued by
    /// callers running together are laid and published once, when the actor is next free.
    func publishQueuedSoon(_ table: TableID) {
        queuedSincePublish.insert(table)
        guard !queuedPublishScheduled else { return }
        queuedPublishScheduled = true
        background.run { [weak self] in await self?.publishQueued() }
    }

    /// Publishes the tables with writes queued since they were last published.
    func publishQueued() {
        queuedPublishScheduled = false
        let tables = queuedSincePublish
        guard !tables.isEmpty else { return }
        for table in tables { publish(table, onlyQueuedMore: true) }
        publishQueueCount()
    }

    /// Republishes everything (after a change of user or a clear).
    func publishAll() {
        folds = [:]
        for key in live.keys { publish(key) }
        for table in pendingByTable.keys { publishPending(table) }
    }

    // MARK: Loading lists

    /// Loads every cached list of a table from the store once, so writes can patch them all.
    func loadLists(of table: TableID) async throws {
        guard !loadedTables.contains(table) else { return }
        let stored = try await store.lists(table: table.table, schema: table.schema)
        if replayLog[table] == nil {
            replayLog[table] = try await store.replayLog(table: table.table, schema: table.schema)
                .map { ReplayEntry(tick: Int($0.tick), mutation: $0.mutation) }
        }
        guard !loadedTables.contains(table) else { return }
        loadedTables.insert(table)
        for list in stored where lists[list.key] == nil {
            guard let query = QueryDescription(canonicalKey: list.key) else { continue }
            lists[list.key] = ListEntry(
                list: CachedList(query: query, rows: list.rows, fetchTick: Int(list.mark)),
                fetchedAt: list.fetchedAt, isStale: list.isStale)
        }
    }

    /// Drops replayed writes that every cached list of their table has been fetched after.
    func retireReplayed(of table: TableID) async throws {
        guard let entries = replayLog[table], !entries.isEmpty else { return }
        // With no cached list the entries stay: a live read with nothing cached yet shows them.
        let ticks = lists.values.filter { TableID($0.list.query) == table }.map(\.list.fetchTick)
        guard !ticks.isEmpty else { return }
        let kept = ReplayLog.remaining(entries, listFetchTicks: ticks)
        guard kept.count != entries.count else { return }
        replayLog[table] = kept
        try await store.retireReplayed(
            table: table.table, schema: table.schema, through: Int64(ticks.min() ?? 0))
    }
}
