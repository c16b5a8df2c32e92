import Foundation

/// The cached lists in memory, run on ``EngineState``'s isolation: read from the store when
/// needed, marked stale, expired, forgotten after an eviction.
enum CachedLists {
    /// Loads the table's cached lists and replay log from the store, once: every list (so
    /// writes can patch them all), or with `key` the list a live read needs (see
    /// `Tables.listsToLoad(_:for:)`).
    static func load(of table: TableID, for key: String? = nil, in state: isolated EngineState) async throws {
        // The tables it declares foreign keys to: the embeds of rows written on the device.
        for related in state.tables.relatedTables[table] ?? [] where !state.tables.isLoaded(related) {
            try await loadOwn(of: related, in: state)
        }
        try await loadOwn(of: table, for: key, in: state)
    }

    /// ``load(of:for:in:)`` for the table alone.
    private static func loadOwn(of table: TableID, for key: String? = nil, in state: isolated EngineState)
        async throws
    {
        var read: TableRead
        // Read again when the cache changed hands (or was cleared) while the store read it.
        repeat {
            guard let load = state.tables.listsToLoad(table, for: key) else { return }
            let generation = state.ownership.listsGeneration
            read = try await TableRead.read(load, of: table, lists: state.lists, from: state.store)
            if generation == state.ownership.listsGeneration { break }
        } while true
        // A list whose time to live ended while the app was away must be fetched again.
        let now = state.services.cache.now()
        for index in read.lists.indices where read.lists[index].expiresAt.map({ $0 <= now }) == true {
            read.lists[index].isStale = true
        }
        state.tables.load(table, read, owner: state.overlayOwner)
    }

    /// Reads the lists of the live reads held now from the cache shown now, after the lists in
    /// memory were dropped (their snapshots wait meanwhile): a read kept open through a change of
    /// cache would otherwise wait for lists that only a read starting again loads. A list the
    /// store cannot give stays missing, as for a read that starts now.
    static func loadOfLiveReads(in state: isolated EngineState) async {
        for query in state.services.liveReads.queries() {
            try? await load(of: TableID(query), for: query.canonicalKey, in: state)
        }
        state.tables.endAwaitingLists(owner: state.overlayOwner)
    }

    /// Marks every cached list of a table stale, refusing answers that left before now; its
    /// live reads fetch again.
    static func markStale(_ table: TableID, in state: isolated EngineState) async throws {
        try await state.outputs.marks.advance(table)
        state.tables.markStale(table, owner: state.overlayOwner)
        state.services.liveReads.markStale(table: table)
    }

    /// Forgets the lists an eviction pass removed from the store (see
    /// `Tables.forget(_:keeping:owner:)`); a list a read began to show meanwhile is saved again.
    static func forgetEvicted(_ evicted: [EvictedList], in state: isolated EngineState) async throws {
        let reading = state.services.cache.keptKeys
        // Only the lists of the cache now are held; other users' were evicted from the store alone.
        let held = evicted.filter { $0.user == state.ownership.partition }
        let saveAgain = state.tables.forget(held, keeping: reading, owner: state.overlayOwner)
        if !saveAgain.isEmpty { try await state.lists.save(saveAgain) }
    }

    /// The time to live of the list of `query` written by answer `serial` has passed on the
    /// client's clock: unless a later answer wrote it, it is stale and no longer the server's
    /// answer (snapshots read `isFromCache`), and its live read fetches again.
    static func expire(_ query: QueryDescription, answer serial: Int, in state: isolated EngineState) {
        let key = query.canonicalKey
        guard state.tables.expire(key, of: TableID(query), answer: serial, owner: state.overlayOwner) else {
            return
        }
        state.services.liveReads.markStale(keys: [key])
    }

    /// When a list of `query` fetched at `fetchedAt` expires, or `nil` without a time to live.
    static func expiry(of query: QueryDescription, fetchedAt: Date, in state: isolated EngineState) -> Date? {
        state.services.cache.policy.timeToLive(query).map { fetchedAt.addingTimeInterval($0.timeInterval) }
    }

    /// Whether an insert or upsert sent at once should ask PostgREST for its rows: a cached list
    /// or live read of its table reads a column one of its sent rows lacks (every column, for
    /// `*`), so only the server's rows (its ids, defaults, triggers' work) can be laid into it.
    static func needsServerRows(_ write: Mutation, in state: isolated EngineState) async -> Bool {
        guard write.operation == .insert || write.operation == .upsert, write.returning == nil else {
            return false
        }
        let table = TableID(write)
        try? await load(of: table, in: state)
        let cached = state.tables.byID[table]?.lists.values.map(\.list.query) ?? []
        let sentColumns = write.sentRows.map(\.columns)
        for query in cached + state.services.liveReads.queries(of: table) {
            switch ReadShape(query).columns {
            case .all, .complex:
                return true
            case .named(let read):
                if sentColumns.contains(where: { !read.isSubset(of: $0) }) { return true }
            }
        }
        return false
    }
}
