extension TableFacts {
    /// The count the cached list under `key` shows from the device, with the owner's writes the
    /// list has not seen laid over it (see ``OverlayCount``), or `nil` when no list is cached.
    ///
    /// - Parameters:
    ///   - key: the canonical key of the counted read's cached list.
    ///   - isWhole: whether that list holds every row the read asks for.
    ///   - primaryKeys: the key columns of each table.
    func cachedCount(of key: String, isWhole: Bool, primaryKeys: PrimaryKeys) -> OverlayCount<FilterEvaluator>
        .Shown?
    {
        guard let entry = lists[key] else { return nil }
        let writes = OverlayWrites.ordered(
            replayLog: replayed.filter { $0.mutation.applies(to: owner) }, fetchTick: entry.list.fetchTick,
            queue: queued.writes, ownerID: owner)
        let others = lists(except: key)
        return OverlayCount(overlay: .engine(primaryKeys: primaryKeys)).shown(
            entry.list, beyond: entry.countBeyond, isWhole: isWhole, writes: writes, otherLists: others)
    }
}
