import Foundation

/// What reaches the cached lists from the server, run on ``EngineState``'s isolation: an answer
/// to a read (unless a rule of the refresh lifecycle refuses it), a write accepted at once, and a
/// change from the server's feed.
enum Answers {
    /// Writes an answer to the cache unless a rule of the refresh lifecycle refuses it; returns
    /// what became of it, with the serial it was written under. `answering` names the live read
    /// whose own refresh asked: that read shows the rows with the state its refresh then reports.
    /// `count` is the server's count of the read, when it asked for one: it is kept with the rows.
    static func apply(
        _ rows: [Row], query: QueryDescription, requestTick tick: Int64, count: Int? = nil,
        answering: String? = nil,
        in state: isolated EngineState
    ) async throws -> FetchAnswer {
        let table = TableID(query)
        if state.closed { return FetchAnswer(.refused(askAgain: false)) }
        var rows = rows
        // The tick the rows are up to date with: the request's, or the last change laid over them.
        var upTo = tick
        let mark = try await state.outputs.marks.mark(of: table)
        if let refusal = state.ownership.refusal(ofAnswerAt: tick, mark: mark) {
            // Changes from the feed since the request left are laid over it where they can be.
            guard let covered = rowsWithFeedChanges(rows, query: query, after: tick, in: state) else {
                return FetchAnswer(refusal)
            }
            (rows, upTo) = covered
        }
        // A count of rows is an answer about rows: none counted is empty too.
        if rows.isEmpty, (count ?? 0) == 0, state.rules.responseTrust == .authenticatedSessionOnly,
            state.outputs.session.value.userID == nil
        {
            return FetchAnswer(.emptyButUntrusted)
        }
        try await CachedLists.load(of: table, in: state)
        // Again with no await before the save is handed to the store: a clear or a change of
        // owner (or a change from the feed) since is refused, and the rows go to the cache they
        // were fetched for.
        if let refusal = state.ownership.refusal(
            ofAnswerAt: upTo, mark: state.outputs.marks.current(of: table))
        {
            return FetchAnswer(refusal)
        }
        let (lists, retiring) = (state.lists, state.retiring)
        let fetchedAt = state.services.cache.now()
        let expiresAt = CachedLists.expiry(of: query, fetchedAt: fetchedAt, in: state)
        let countBeyond = count.map { $0 - rows.count }
        let stored = { (rows: [Row]) in
            StoredList(
                key: query.canonicalKey, schema: query.schema, table: query.table, rows: rows,
                fetchedAt: fetchedAt, mark: tick, isStale: false, expiresAt: expiresAt,
                countBeyond: countBeyond)
        }
        // The replayed writes the answer lets go retire in its own commit, and leave memory
        // only once it committed: a failed commit shows nothing.
        let retiredThrough = state.tables.retirement(
            of: table, listing: query.canonicalKey, fetchedAt: tick, retiring: retiring)
        try await lists.save(stored(rows), retiringThrough: retiredThrough, of: retiring)
        state.services.cache.wrote()
        // The store's await let other events run: a clear, a new owner or a write since then
        // wins; changes from the feed are laid over the rows, which are saved again after they
        // are in memory (a change landing meanwhile then saves on top of them).
        var savedRows: [Row]?
        if let refusal = state.ownership.refusal(
            ofAnswerAt: upTo, mark: state.outputs.marks.current(of: table))
        {
            guard let covered = rowsWithFeedChanges(rows, query: query, after: upTo, in: state) else {
                return FetchAnswer(refusal)
            }
            (rows, savedRows) = (covered.rows, covered.rows)
        }
        let serial = state.tables.writeAnswer(
            rows, query: query, tick: tick, fetchedAt: fetchedAt, expiresAt: expiresAt,
            countBeyond: countBeyond, answering: answering, owner: state.overlayOwner, retiring: retiring,
            retiredThrough: retiredThrough)
        if let savedRows { try await lists.save(stored(savedRows)) }
        return FetchAnswer(.applied, answer: serial)
    }

    /// Lays a write the server accepted at once into every cached list of its table (or marks
    /// them stale where its effect cannot be worked out), and moves the table's mark forward.
    static func patchAccepted(
        _ mutation: Mutation, returned: [Row], requestTick: Int64, in state: isolated EngineState
    ) async throws {
        let now = Date()
        state.outputs.queue.update { $0.lastSyncedAt = now }
        let table = TableID(mutation)
        try await CachedLists.load(of: table, in: state)
        let tick = try await state.outputs.marks.advance(table)
        // A write to another schema may reach the same table read without one: its answers in
        // flight are refused too, and its lists fetched again below.
        var reached: [(table: TableID, tick: Int64)] = []
        for other in state.tables.tablesSharingName(with: table) {
            try await CachedLists.load(of: other, in: state)
            reached.append((other, try await state.outputs.marks.advance(other)))
        }
        // After the awaits, with none until the lists are patched: a clear or a new owner since the
        // request left wins, and the patch is laid over the lists as they are now.
        guard state.ownership.admitsPatch(requestedAt: requestTick), !state.closed else { return }
        // Shown as sent until now: the patch takes its place in the same facts.
        state.tables.endShowingAsSent(mutation, owner: state.overlayOwner, publishing: false)
        let (changed, stale) = state.tables.patchAccepted(
            mutation, returned: returned, liveQueries: state.services.liveReads.queries(of: table),
            primaryKeys: state.rules.primaryKeys,
            tick: tick, owner: state.overlayOwner)
        state.services.liveReads.markStale(keys: stale)
        for other in reached {
            let keys = state.tables.markAllStale(
                other.table, liveQueries: state.services.liveReads.queries(of: other.table), tick: other.tick,
                owner: state.overlayOwner)
            state.services.liveReads.markStale(keys: keys)
        }
        if !changed.isEmpty {
            try await state.lists.save(changed)
            state.services.cache.wrote()
        }
    }

    /// Lays a change from the server's feed into every cached list of its table (or marks the
    /// lists stale where its effect cannot be told), moving the table's mark forward as a write
    /// does. The user's pending writes stay laid on top: the overlay lays them over these lists.
    static func land(_ change: RowChange, in state: isolated EngineState) async throws {
        let landing = ChangeLanding(change, primaryKeys: state.rules.primaryKeys)
        let table = landing.table
        try await CachedLists.load(of: table, in: state)
        let tick = try await state.outputs.marks.advance(table, byFeed: true)
        guard !state.closed else { return }
        state.tables.feedLog.record(change, tick: tick, of: table)
        let (changed, stale) = state.tables.land(landing, tick: tick, owner: state.overlayOwner)
        state.services.liveReads.markStale(keys: stale)
        if !changed.isEmpty {
            try await state.lists.save(changed)
            state.services.cache.wrote()
        }
        try await markSharingNameStale(with: table, in: state)
    }

    /// A change in a named schema may reach the same table read without one (the server's
    /// default schema): those lists are fetched again, as for a write accepted at once.
    static func markSharingNameStale(with table: TableID, in state: isolated EngineState) async throws {
        for other in state.tables.tablesSharingName(with: table) {
            try await CachedLists.load(of: other, in: state)
            let tick = try await state.outputs.marks.advance(other)
            guard !state.closed else { return }
            let keys = state.tables.markAllStale(
                other, liveQueries: state.services.liveReads.queries(of: other), tick: tick,
                owner: state.overlayOwner)
            state.services.liveReads.markStale(keys: keys)
        }
    }

    /// An answer's rows with the feed's changes since its request left laid over them, and the
    /// table's mark they are up to date with, or `nil` when that cannot be: the answer is
    /// refused (something else moved the table's mark, or a change that moved it is not logged
    /// yet, or the answer came from a clear or an owner ago, or a change cannot be laid into
    /// the list).
    static func rowsWithFeedChanges(
        _ rows: [Row], query: QueryDescription, after tick: Int64, in state: isolated EngineState
    ) -> (rows: [Row], through: Int64)? {
        let table = TableID(query)
        let mark = state.outputs.marks.current(of: table)
        guard state.ownership.refusal(ofAnswerAt: tick, mark: tick) == nil,
            state.outputs.marks.onlyFeedChanges(of: table, after: tick),
            let changes = state.tables.feedLog.changes(of: table, after: tick, through: mark),
            !changes.isEmpty
        else { return nil }
        var list = CachedList(query: query, rows: rows, fetchTick: Int(tick))
        for change in changes {
            switch ChangeLanding(change, primaryKeys: state.rules.primaryKeys).patch(list) {
            case .unchanged: continue
            case .rows(let laid): list.rows = laid
            case .stale: return nil
            }
        }
        return (list.rows, mark)
    }
}
