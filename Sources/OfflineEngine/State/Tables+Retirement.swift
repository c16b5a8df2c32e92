/// When the replayed writes of a table retire: once every cached list of the table (the cache
/// of those writes' owner) was fetched after them, they leave the overlay and the store's log.
/// An answer's retirement is worked out before its commit, so the store retires them in that
/// commit and memory only after it: readers never see a retirement the store did not keep.
extension Tables {
    /// The tick through which the replayed writes of `retiring` retire once the list of `key`
    /// holds rows fetched at `tick`, or `nil` when none would. With no cached list the writes
    /// stay: a live read with nothing cached yet shows them.
    func retirement(of table: TableID, listing key: String, fetchedAt tick: Int64, retiring: WriteOwners)
        -> Int64?
    {
        guard let state = byID[table], !state.replayed.isEmpty else { return nil }
        let others = state.lists.lazy.filter { $0.key != key }.map { Int64($0.value.list.fetchTick) }
        let oldest = min(others.min() ?? tick, tick)
        let retires = state.replayed.contains {
            retiring.include($0.mutation.ownerID) && Int64($0.tick) <= oldest
        }
        return retires ? oldest : nil
    }

    /// Drops the replayed writes of `retiring` logged through `through` that every cached list
    /// of the table was fetched after (the store dropped those through `through`); sends no facts.
    mutating func retireReplayed(of table: TableID, through: Int64, retiring: WriteOwners) {
        guard let state = byID[table], !state.replayed.isEmpty,
            let fetched = state.lists.values.map(\.list.fetchTick).min()
        else { return }
        let oldest = min(Int64(fetched), through)
        let kept = ReplayLog.capped(
            state.replayed.filter { !retiring.include($0.mutation.ownerID) || Int64($0.tick) > oldest })
        if kept.count != state.replayed.count { byID[table]?.replayed = kept }
    }
}
