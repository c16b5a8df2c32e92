/// The changes from the server's feed laid into each table's lists, with the tick each moved
/// the table's mark to: an answer whose request left before some of them gets them laid over its
/// rows instead of being refused, so a list under a steady stream of changes still settles.
struct FeedLog: Sendable {
    /// How many changes a table keeps; an answer older than the oldest kept is refused.
    static let limit = 1_000

    private struct Entry: Sendable {
        let tick: Int64
        let change: RowChange
    }

    private var entries: [TableID: [Entry]] = [:]
    /// Per table, the newest tick of a change no longer kept.
    private var floors: [TableID: Int64] = [:]

    /// Keeps a change laid at `tick`.
    mutating func record(_ change: RowChange, tick: Int64, of table: TableID) {
        entries[table, default: []].append(Entry(tick: tick, change: change))
        let excess = (entries[table]?.count ?? 0) - Self.limit
        if excess > 0, let dropped = entries[table]?.prefix(excess) {
            floors[table] = max(floors[table] ?? 0, dropped.last?.tick ?? 0)
            entries[table]?.removeFirst(excess)
        }
    }

    /// The changes laid after `tick` up to the table's `mark`, oldest first, or `nil` when one of
    /// them is no longer kept, or not kept yet (the mark moved for a change still being laid).
    func changes(of table: TableID, after tick: Int64, through mark: Int64) -> [RowChange]? {
        if let floor = floors[table], floor > tick { return nil }
        let kept = (entries[table] ?? []).filter { $0.tick > tick && $0.tick <= mark }
        guard (kept.last?.tick ?? tick) >= mark else { return nil }
        return kept.map(\.change)
    }

    /// Forgets every change (a clear, or the cache passed to a new owner: older answers are
    /// refused then anyway).
    mutating func forget() {
        entries = [:]
        floors = [:]
    }
}
