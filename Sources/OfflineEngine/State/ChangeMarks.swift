import Synchronization

/// Each table's change mark (the tick of its last change), read through from the store and kept:
/// an answer to a request that left before its table's mark is refused.
///
/// Marks only grow, so they need no actor: each is the largest value seen, whoever saw it.
final class ChangeMarks: Sendable {
    private let store: Store
    private let known = Mutex<[TableID: Int64]>([:])

    init(store: Store) {
        self.store = store
    }

    /// A tick from the store's monotonic counter, read before a request goes out.
    func nextTick() async throws -> Int64 {
        try await store.marks.nextTick()
    }

    /// A table's mark, read from the store the first time.
    func mark(of table: TableID) async throws -> Int64 {
        if let mark = known.withLock({ $0[table] }) { return mark }
        let stored = try await store.marks.mark(table: table.table, schema: table.schema)
        return raise(table, to: stored)
    }

    /// The mark of a table as last seen, without asking the store (`0`: not seen yet).
    func current(of table: TableID) -> Int64 {
        known.withLock { $0[table] ?? 0 }
    }

    /// Moves a table's mark forward to a new tick: an answer whose request left before now is
    /// refused. Returns the tick.
    @discardableResult
    func advance(_ table: TableID) async throws -> Int64 {
        let tick = try await store.marks.advance(table: table.table, schema: table.schema)
        raise(table, to: tick)
        return tick
    }

    /// Records a mark the store moved to `tick` in a transaction of its own making.
    func saw(_ tick: Int64, of table: TableID) {
        raise(table, to: tick)
    }

    /// Forgets what was seen (after a clear); the store keeps the marks.
    func forget() {
        known.withLock { $0 = [:] }
    }

    @discardableResult
    private func raise(_ table: TableID, to mark: Int64) -> Int64 {
        known.withLock { marks in
            let value = max(mark, marks[table] ?? 0)
            marks[table] = value
            return value
        }
    }
}
