/// A write a replay pass sent, with the tick that orders it against list fetches.
struct ReplayEntry: Sendable, Hashable {
    /// A per-table increasing counter value given when the write was sent.
    var tick: Int
    /// The write.
    var mutation: Mutation

    /// A replay-log entry from its parts.
    init(tick: Int, mutation: Mutation) {
        self.tick = tick
        self.mutation = mutation
    }

    /// A replay-log entry from its parts, in the order the store keeps them.
    init(mutation: Mutation, tick: Int) {
        self.init(tick: tick, mutation: mutation)
    }
}

/// The rules for replayed writes: which a list still shows, and which the log keeps.
enum ReplayLog {
    /// A table keeps at most this many replayed writes; past it the oldest go.
    static let capPerTable = 1_000

    /// The newest `capPerTable` entries, oldest first.
    static func capped(_ entries: [ReplayEntry]) -> [ReplayEntry] {
        Array(entries.sorted { $0.tick < $1.tick }.suffix(capPerTable))
    }

    /// The replayed writes a list fetched at `fetchTick` has not seen, oldest first: entries with
    /// a greater tick, among the table's newest `capPerTable`.
    static func unseen(_ entries: [ReplayEntry], fetchTick: Int) -> [ReplayEntry] {
        capped(entries).filter { $0.tick > fetchTick }
    }

    /// The entries a table's log keeps: those some cached list of the table has not been fetched
    /// after, at most the newest `capPerTable`, oldest first.
    ///
    /// - Parameters:
    ///   - entries: the table's replay log.
    ///   - listFetchTicks: the fetch tick of every cached list of the table. With no cached
    ///     list, every entry retires (a list cached later is fetched after them).
    static func remaining(_ entries: [ReplayEntry], listFetchTicks: [Int]) -> [ReplayEntry] {
        guard let oldestFetch = listFetchTicks.min() else { return [] }
        return capped(entries.filter { $0.tick > oldestFetch })
    }
}
