import Foundation

extension EngineState {
    /// Writes an answer to the cache unless a rule of the refresh lifecycle refuses it; returns
    /// what became of it, with the serial it was written under. `answering` names the live read
    /// whose own refresh asked: that read shows the rows with the state its refresh then reports.
    /// `count` is the server's count of the read, when it asked for one: it is kept with the rows.
    func applyAnswer(
        _ rows: [Row], query: QueryDescription, requestTick tick: Int64, count: Int? = nil,
        answering: String? = nil
    ) async throws -> FetchAnswer {
        let table = TableID(query)
        if closed { return FetchAnswer(.refused(askAgain: false)) }
        var rows = rows
        // The tick the rows are up to date with: the request's, or the last change laid over them.
        var upTo = tick
        let mark = try await marks.mark(of: table)
        if let refusal = ownership.refusal(ofAnswerAt: tick, mark: mark) {
            // Changes from the feed since the request left are laid over it where they can be.
            guard let covered = rowsWithFeedChanges(rows, query: query, after: tick) else {
                return FetchAnswer(refusal)
            }
            (rows, upTo) = (covered, mark)
        }
        // A count of rows is an answer about rows: none counted is empty too.
        if rows.isEmpty, (count ?? 0) == 0, responseTrust == .authenticatedSessionOnly,
            session.value.userID == nil
        {
            return FetchAnswer(.emptyButUntrusted)
        }
        try await loadLists(of: table)
        // Again with no await before the save is handed to the store: a clear or a change of
        // owner (or a change from the feed) since is refused, and the rows go to the cache they
        // were fetched for.
        if let refusal = ownership.refusal(ofAnswerAt: upTo, mark: marks.current(of: table)) {
            return FetchAnswer(refusal)
        }
        let (lists, retiring) = (self.lists, self.retiring)
        let fetchedAt = cache.now()
        let expiresAt = expiry(of: query, fetchedAt: fetchedAt)
        let countBeyond = count.map { $0 - rows.count }
        let stored = { (rows: [Row]) in
            StoredList(
                key: query.canonicalKey, schema: query.schema, table: query.table, rows: rows,
                fetchedAt: fetchedAt, mark: tick, isStale: false, expiresAt: expiresAt,
                countBeyond: countBeyond)
        }
        // The replayed writes the answer lets go retire in its own commit, and leave memory
        // only once it committed: a failed commit shows nothing.
        let retiredThrough = tables.retirement(
            of: table, listing: query.canonicalKey, fetchedAt: tick, retiring: retiring)
        try await lists.save(stored(rows), retiringThrough: retiredThrough, of: retiring)
        cache.wrote()
        // The store's await let other events run: a clear, a new owner or a write since then
        // wins; changes from the feed are laid over the rows, which are saved again after they
        // are in memory (a change landing meanwhile then saves on top of them).
        var savedRows: [Row]?
        if let refusal = ownership.refusal(ofAnswerAt: upTo, mark: marks.current(of: table)) {
            guard let covered = rowsWithFeedChanges(rows, query: query, after: upTo) else {
                return FetchAnswer(refusal)
            }
            (rows, savedRows) = (covered, covered)
        }
        let serial = tables.writeAnswer(
            rows, query: query, tick: tick, fetchedAt: fetchedAt, expiresAt: expiresAt,
            countBeyond: countBeyond, answering: answering, owner: overlayOwner, retiring: retiring,
            retiredThrough: retiredThrough)
        if let savedRows { try await lists.save(stored(savedRows)) }
        return FetchAnswer(.applied, answer: serial)
    }

    /// Loads the table's cached lists and replay log from the store, once: every list (so
    /// writes can patch them all), or with `key` the list a live read needs (see
    /// `Tables.listsToLoad(_:for:)`).
    func loadLists(of table: TableID, for key: String? = nil) async throws {
        // The tables it declares foreign keys to: the embeds of rows written on the device.
        for related in tables.relatedTables[table] ?? [] where !tables.isLoaded(related) {
            try await loadOwnLists(of: related)
        }
        try await loadOwnLists(of: table, for: key)
    }

    /// ``loadLists(of:for:)`` for the table alone.
    private func loadOwnLists(of table: TableID, for key: String? = nil) async throws {
        var read: TableRead
        // Read again when the cache changed hands (or was cleared) while the store read it.
        repeat {
            guard let load = tables.listsToLoad(table, for: key) else { return }
            let generation = ownership.listsGeneration
            read = try await TableRead.read(load, of: table, lists: lists, from: store)
            if generation == ownership.listsGeneration { break }
        } while true
        // A list whose time to live ended while the app was away must be fetched again.
        let now = cache.now()
        for index in read.lists.indices where read.lists[index].expiresAt.map({ $0 <= now }) == true {
            read.lists[index].isStale = true
        }
        tables.load(table, read, owner: overlayOwner)
    }

    /// Marks every cached list of a table stale, refusing answers that left before now; its
    /// live reads fetch again.
    func markStale(_ table: TableID) async throws {
        try await marks.advance(table)
        tables.markStale(table, owner: overlayOwner)
        liveReads.markStale(table: table, reason: .write)
    }

    /// Lays a write the server accepted at once into every cached list of its table (or marks
    /// them stale where its effect cannot be worked out), and moves the table's mark forward.
    func patchAccepted(_ mutation: Mutation, returned: [Row], requestTick: Int64) async throws {
        let now = Date()
        uploads.update { $0.lastSyncedAt = now }
        let table = TableID(mutation)
        try await loadLists(of: table)
        let tick = try await marks.advance(table)
        // After the awaits, with none until the lists are patched: a clear or a new owner since the
        // request left wins, and the patch is laid over the lists as they are now.
        guard ownership.admitsPatch(requestedAt: requestTick), !closed else { return }
        // Shown as sent until now: the patch takes its place in the same facts.
        tables.remove([mutation], owner: overlayOwner, publishing: false)
        let (changed, stale) = tables.patchAccepted(
            mutation, returned: returned, liveQueries: liveReads.queries(of: table), primaryKeys: primaryKeys,
            tick: tick, owner: overlayOwner)
        liveReads.markStale(keys: stale, reason: .write)
        if !changed.isEmpty {
            try await lists.save(changed)
            cache.wrote()
        }
    }
}
