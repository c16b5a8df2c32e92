extension Tables {
    /// Lays a change from the feed into every cached list of its table: returns the lists to
    /// save and the keys of those to fetch again.
    mutating func land(_ landing: ChangeLanding, tick: Int64, owner: String?) -> (
        changed: [StoredList], stale: Set<String>
    ) {
        let table = landing.table
        let lists = byID[table]?.lists ?? [:]
        let patches = lists.keys.sorted().compactMap { key in
            lists[key].map { (key: key, query: $0.list.query, patch: landing.patch($0.list)) }
        }
        return apply(patches, to: table, tick: tick, owner: owner)
    }
}
