/// A write accepted in a schema other than `public` may reach the same table read without a
/// schema: which schema a request without one reaches is the server's choice (the first of
/// PostgREST's `db-schemas`), so the cache cannot tell. Such a write makes every read of a table
/// of that name stale, in whichever schema it was read (the reference: "a write to another
/// schema marks the lists it may reach stale, and their live readers fetch again").
extension Tables {
    /// The other tables a write accepted into `table` may reach: those of the same name in
    /// another schema, when `table` is not in `public`. Only tables the state holds (a list
    /// cached or read live) can be stale.
    func tablesSharingName(with table: TableID) -> [TableID] {
        guard table.schema != nil else { return [] }
        return byID.keys.filter { $0.table == table.table && $0 != table }
            .sorted { ($0.schema ?? "") < ($1.schema ?? "") }
    }

    /// Marks every cached list of `table` stale, and the live reads of `liveQueries` that have
    /// none yet: returns the keys to fetch again.
    mutating func markAllStale(
        _ table: TableID, liveQueries: [QueryDescription], tick: Int64, owner: String?
    ) -> Set<String> {
        let lists = byID[table]?.lists ?? [:]
        let cached = lists.keys.sorted().compactMap { key in
            lists[key].map { (key: key, query: $0.list.query, patch: ListPatch.stale) }
        }
        let uncached = liveQueries.filter { lists[$0.canonicalKey] == nil }.map {
            (key: $0.canonicalKey, query: $0, patch: ListPatch.stale)
        }
        return apply(cached + uncached, to: table, tick: tick, owner: owner).stale
    }
}
