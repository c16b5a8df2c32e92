import Foundation

extension EngineState {
    /// Writes an answer to the cache unless a rule of the refresh lifecycle refuses it; returns
    /// what became of it, with the serial it was written under. `answering` names the live read
    /// whose own refresh asked: that read shows the rows with the state its refresh then reports.
    func applyAnswer(
        _ rows: [Row], query: QueryDescription, requestTick tick: Int64, answering: String? = nil
    ) async throws -> FetchAnswer {
        let table = TableID(query)
        if closed { return FetchAnswer(.refused(askAgain: false)) }
        // While a clear waits for the store, every answer is refused; the clear marks the reads
        // stale, so they ask again with the signed-out session.
        if clearedAt == .max { return FetchAnswer(.refused(askAgain: true)) }
        if tick < clearedAt { return FetchAnswer(.refused(askAgain: false)) }
        if tick < ownerChangedAt { return FetchAnswer(.refused(askAgain: true)) }
        if tick < (try await mark(of: table)) { return FetchAnswer(.refused(askAgain: true)) }
        if rows.isEmpty, responseTrust == .authenticatedSessionOnly, session.value.userID == nil {
            return FetchAnswer(.emptyButUntrusted)
        }
        try await loadLists(of: table)
        let key = query.canonicalKey
        let fetchedAt = Date()
        try await store.saveList(
            StoredList(
                key: key, schema: query.schema, table: query.table, rows: rows, fetchedAt: fetchedAt,
                mark: tick, isStale: false))
        // The store's await let other events run: a clear or a new owner since then wins.
        if tick < clearedAt {
            return FetchAnswer(.refused(askAgain: clearedAt == .max))
        }
        if tick < ownerChangedAt || tick < (marks[table] ?? 0) {
            return FetchAnswer(.refused(askAgain: true))
        }
        answerSerial += 1
        tables[table, default: TableState()].lists[key] = ListEntry(
            list: CachedList(query: query, rows: rows, fetchTick: Int(tick)), fetchedAt: fetchedAt,
            isStale: false, answer: AnswerStamp(serial: answerSerial, refreshOf: answering))
        let serial = answerSerial
        try await retireReplayed(of: table)
        changed(table)
        return FetchAnswer(.applied, answer: serial)
    }

    /// Loads every cached list of a table and its replay log from the store once, so writes
    /// can patch them all.
    func loadLists(of table: TableID) async throws {
        guard tables[table]?.loaded != true else { return }
        let stored = try await store.lists(table: table.table, schema: table.schema)
        let replayed = try await store.replayLog(table: table.table, schema: table.schema)
            .map { ReplayEntry(tick: Int($0.tick), mutation: $0.mutation) }
        guard tables[table]?.loaded != true else { return }
        var state = tables[table] ?? TableState()
        state.loaded = true
        state.replayed = replayed
        for list in stored where state.lists[list.key] == nil {
            guard let query = QueryDescription(canonicalKey: list.key) else { continue }
            state.lists[list.key] = ListEntry(
                list: CachedList(query: query, rows: list.rows, fetchTick: Int(list.mark)),
                fetchedAt: list.fetchedAt, isStale: list.isStale, answer: nil)
        }
        tables[table] = state
        changed(table)
    }

    /// Drops replayed writes that every cached list of their table has been fetched after.
    func retireReplayed(of table: TableID) async throws {
        guard let state = tables[table], !state.replayed.isEmpty else { return }
        // With no cached list the entries stay: a live read with nothing cached yet shows them.
        let ticks = state.lists.values.map(\.list.fetchTick)
        guard let oldest = ticks.min() else { return }
        let kept = ReplayLog.remaining(state.replayed, listFetchTicks: ticks)
        guard kept.count != state.replayed.count else { return }
        tables[table]?.replayed = kept
        changed(table)
        try await store.retireReplayed(table: table.table, schema: table.schema, through: Int64(oldest))
    }

    /// Marks every cached list of a table stale, refusing answers that left before now; its
    /// live reads fetch again.
    func markStale(_ table: TableID) async throws {
        try await advanceMark(of: table)
        for key in tables[table]?.lists.keys.map({ $0 }) ?? [] {
            tables[table]?.lists[key]?.isStale = true
        }
        changed(table)
        liveReads.markStale(table: table, reason: .write)
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
        let lists = tables[table]?.lists ?? [:]
        let keys = lists.keys.sorted()
        let uncached = liveReads.queries(of: table).filter { lists[$0.canonicalKey] == nil }
        let result = Overlay<FilterEvaluator>.engine(primaryKeys: primaryKeys).patch(
            mutation, returned: mutation.returning == nil ? nil : returned,
            into: keys.compactMap { lists[$0]?.list }, uncachedReads: uncached)
        var changedLists = [StoredList]()
        var staleKeys = Set<String>()
        let patches =
            zip(keys.map { ($0, lists[$0]?.list.query) }, result.lists).map { ($0.0, $0.1, $1) }
            + zip(uncached, result.uncachedReads).map { ($0.canonicalKey, Optional($0), $1) }
        for (key, query, patch) in patches {
            guard let query else { continue }
            switch patch {
            case .unchanged:
                continue
            case .rows(let rows):
                var entry =
                    tables[table]?.lists[key]
                    ?? ListEntry(
                        list: CachedList(query: query, rows: [], fetchTick: Int(tick)), fetchedAt: nil,
                        isStale: false, answer: nil)
                entry.list.rows = rows
                tables[table, default: TableState()].lists[key] = entry
                changedLists.append(
                    StoredList(
                        key: key, schema: query.schema, table: query.table, rows: rows,
                        fetchedAt: entry.fetchedAt ?? Date(timeIntervalSince1970: 0),
                        mark: Int64(entry.list.fetchTick), isStale: entry.isStale))
            case .stale:
                tables[table]?.lists[key]?.isStale = true
                staleKeys.insert(key)
            }
        }
        changed(table)
        liveReads.markStale(keys: staleKeys, reason: .write)
        if !changedLists.isEmpty { try await store.saveLists(changedLists) }
    }
}
