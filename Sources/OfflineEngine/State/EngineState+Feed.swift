extension EngineState {
    /// Lays a change from the server's feed into every cached list of its table (or marks the
    /// lists stale where its effect cannot be told), moving the table's mark forward as a write
    /// does. The user's pending writes stay laid on top: the overlay lays them over these lists.
    func land(_ change: RowChange) async throws {
        let landing = ChangeLanding(change, primaryKeys: primaryKeys)
        let table = landing.table
        try await loadLists(of: table)
        let tick = try await marks.advance(table, byFeed: true)
        guard !closed else { return }
        feedLog.record(change, tick: tick, of: table)
        let (changed, stale) = tables.land(landing, tick: tick, owner: overlayOwner)
        liveReads.markStale(keys: stale, reason: .write)
        if !changed.isEmpty {
            try await lists.save(changed)
            cache.wrote()
        }
    }

    /// An answer's rows with the feed's changes since its request left laid over them, or `nil`
    /// when that cannot be: the answer is refused (something else moved the table's mark, or
    /// the answer came from a clear or an owner ago, or a change cannot be laid into the list).
    func rowsWithFeedChanges(_ rows: [Row], query: QueryDescription, after tick: Int64) -> [Row]? {
        let table = TableID(query)
        guard ownership.refusal(ofAnswerAt: tick, mark: tick) == nil,
            marks.onlyFeedChanges(of: table, after: tick),
            let changes = feedLog.changes(of: table, after: tick), !changes.isEmpty
        else { return nil }
        var list = CachedList(query: query, rows: rows, fetchTick: Int(tick))
        for change in changes {
            switch ChangeLanding(change, primaryKeys: primaryKeys).patch(list) {
            case .unchanged: continue
            case .rows(let laid): list.rows = laid
            case .stale: return nil
            }
        }
        return list.rows
    }
}
