import Synchronization

/// Each table's change mark (the tick of its last change), read through from the store and kept:
/// an answer to a request that left before its table's mark is refused.
///
/// Marks only grow, so they need no actor: each is the largest value seen, whoever saw it.
final class ChangeMarks: Sendable {
    private let store: Store
    private let known = Mutex<Known>(Known())

    private struct Known {
        var marks: [TableID: Int64] = [:]
        /// The newest tick a table's mark moved to for anything but a change from the feed.
        var others: [TableID: Int64] = [:]
    }

    init(store: Store) {
        self.store = store
    }

    /// A tick from the store's monotonic counter, read before a request goes out (no commit).
    func nextTick() -> Int64 {
        store.marks.nextTick()
    }

    /// A table's mark, read from the store the first time.
    nonisolated(nonsending) func mark(of table: TableID) async throws -> Int64 {
        if let mark = known.withLock({ $0.marks[table] }) { return mark }
        let stored = try await store.marks.mark(table: table.table, schema: table.schema)
        return raise(table, to: stored)
    }

    /// The mark of a table as last seen, without asking the store (`0`: not seen yet).
    func current(of table: TableID) -> Int64 {
        known.withLock { $0.marks[table] ?? 0 }
    }

    /// Whether every move of a table's mark after `tick` was a change from the feed (laid with
    /// `advance(_:byFeed: true)`), so an answer to a request that left at `tick` may take them.
    func onlyFeedChanges(of table: TableID, after tick: Int64) -> Bool {
        known.withLock { ($0.others[table] ?? 0) <= tick }
    }

    /// Moves a table's mark forward to a new tick: an answer whose request left before now is
    /// refused. Returns the tick. `byFeed`: for a change from the server's feed (see ``onlyFeedChanges(of:after:)``).
    /// Runs on the caller's isolation, so that the caller goes on from the raised mark with no
    /// hop between (a change from the feed is logged in the same turn).
    @discardableResult
    nonisolated(nonsending) func advance(_ table: TableID, byFeed: Bool = false) async throws -> Int64 {
        let tick = try await store.marks.advance(table: table.table, schema: table.schema)
        raise(table, to: tick, byFeed: byFeed)
        return tick
    }

    /// Records a mark the store moved to `tick` in a transaction of its own making.
    func saw(_ tick: Int64, of table: TableID) {
        raise(table, to: tick)
    }

    /// Forgets what was seen (after a clear); the store keeps the marks.
    func forget() {
        known.withLock { $0 = Known() }
    }

    @discardableResult
    private func raise(_ table: TableID, to mark: Int64, byFeed: Bool = false) -> Int64 {
        known.withLock { known in
            let value = max(mark, known.marks[table] ?? 0)
            known.marks[table] = value
            if !byFeed { known.others[table] = max(mark, known.others[table] ?? 0) }
            return value
        }
    }
}
