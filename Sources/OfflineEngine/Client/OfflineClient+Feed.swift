extension OfflineClient {
    /// Follows a feed of row changes made on the server (by other devices, other users, or the
    /// server itself) until the sequence ends: each change is laid into the cached lists of its
    /// table, so live reads show it, with the user's pending writes still laid on top.
    ///
    /// The library has no WebSocket client: map your realtime client's events to
    /// ``ChangeFeedEvent``s. For Supabase, that is Realtime's `postgresChange` actions and the
    /// channel's status (the catalog's "Changes from other devices" shows the bridge):
    ///
    /// ```swift
    /// let feed = AsyncStream<ChangeFeedEvent> { continuation in
    ///     // .subscribed when the channel's status turns subscribed, .disconnected when it
    ///     // drops, .change(...) for each postgres change.
    /// }
    /// try await client.follow(changes: feed, tables: ["tasks"])
    /// ```
    ///
    /// How a change lands: an inserted or updated row replaces the row with its key in each list
    /// whose filters admit it, joins a list without order or page that does not hold it, and
    /// leaves one whose filters refuse it; a deleted row leaves every list by key. Where the
    /// engine cannot tell (a filter it cannot evaluate, a list with a page or an order the row
    /// may move in, a record cut short or with errors), the list is fetched again. An answer to
    /// a request that left before a change gets the change laid over it.
    ///
    /// A feed misses whatever changed while it was not subscribed: every ``ChangeFeedEvent/subscribed``
    /// fetches the tables' lists again, and changes sent before it are held until it comes.
    /// While the feed is down, ``SyncStatus/disconnectedFeeds`` names its tables.
    ///
    /// - Parameters:
    ///   - changes: the feed's events.
    ///   - tables: the tables the feed carries (their lists are fetched again on "subscribed").
    ///   - schema: the tables' schema.
    public func follow<Changes: AsyncSequence & Sendable>(
        changes: Changes, tables: [String], schema: String = "public"
    ) async throws where Changes.Element == ChangeFeedEvent {
        let engine = try await openedEngine()
        try await engine.follow(changes, tables: tables.map { TableID(schema: schema, table: $0) })
    }
}
