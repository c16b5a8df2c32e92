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
        let fetchedAt = Date()
        try await store.lists.save(
            StoredList(
                key: query.canonicalKey, schema: query.schema, table: query.table, rows: rows,
                fetchedAt: fetchedAt,
                mark: tick, isStale: false))
        // The store's await let other events run: a clear or a new owner since then wins.
        if tick < clearedAt {
            return FetchAnswer(.refused(askAgain: clearedAt == .max))
        }
        if tick < ownerChangedAt || tick < (marks[table] ?? 0) {
            return FetchAnswer(.refused(askAgain: true))
        }
        let serial = tables.writeAnswer(
            rows, query: query, tick: tick, fetchedAt: fetchedAt, answering: answering)
        // One facts value: the new list, and the replayed writes it retired.
        if let through = tables.retireReplayed(of: table, owner: overlayOwner) {
            try await store.replayLog.retire(table: table.table, schema: table.schema, through: through)
        } else {
            tables.changed(table, owner: overlayOwner)
        }
        return FetchAnswer(.applied, answer: serial)
    }

    /// Loads every cached list of a table and its replay log from the store once, so writes
    /// can patch them all.
    func loadLists(of table: TableID) async throws {
        guard !tables.isLoaded(table) else { return }
        let stored = try await store.lists.all(table: table.table, schema: table.schema)
        let replayed = try await store.replayLog.writes(table: table.table, schema: table.schema)
            .map { ReplayEntry(tick: Int($0.tick), mutation: $0.mutation) }
        guard !tables.isLoaded(table) else { return }
        tables.load(table, lists: stored, replayed: replayed, owner: overlayOwner)
    }

    /// Marks every cached list of a table stale, refusing answers that left before now; its
    /// live reads fetch again.
    func markStale(_ table: TableID) async throws {
        try await advanceMark(of: table)
        tables.markStale(table, owner: overlayOwner)
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
        let cached = lists.keys.sorted().compactMap { key in lists[key].map { (key, $0.list) } }
        let uncached = liveReads.queries(of: table).filter { lists[$0.canonicalKey] == nil }
        let result = Overlay<FilterEvaluator>.engine(primaryKeys: primaryKeys).patch(
            mutation, returned: mutation.returning == nil ? nil : returned, into: cached.map(\.1),
            uncachedReads: uncached)
        let patches =
            zip(cached, result.lists).map { (key: $0.0, query: $0.1.query, patch: $1) }
            + zip(uncached, result.uncachedReads).map { (key: $0.canonicalKey, query: $0, patch: $1) }
        let (changed, stale) = tables.apply(patches, to: table, tick: tick, owner: overlayOwner)
        liveReads.markStale(keys: stale, reason: .write)
        if !changed.isEmpty { try await store.lists.save(changed) }
    }
}
