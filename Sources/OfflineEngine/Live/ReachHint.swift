import Synchronization

/// Whether new facts of a table may change what one live read shows, decided where the facts are
/// sent, so the read is not woken for writes to its table that cannot reach it.
///
/// Only an INSERT can be told apart cheaply: it changes the read's rows when its filters may
/// admit a row, or when the list holds a row with the same key (the row merges into it). So the
/// hint keeps the keys of the rows the read's fold held when it last composed (a superset: keys
/// of rows that left stay); the composer tells it after each composition which keys joined. Any
/// other change (a list fetched, an UPDATE, a DELETE, an UPSERT, another owner) always wakes the
/// read.
///
/// Why a stale hint is safe: the read re-watches its facts after the version it composed, and a
/// change sent before that wakes it at once; while it watches, every skipped INSERT left the
/// fold's keys as the hint has them (a row that is not admitted and matches no key joins
/// nothing).
final class ReachHint: Sendable {
    private let filters: [Filter]
    private let keys: OverlayKeys
    private let evaluator: FilterEvaluator
    /// The keys of the read's rows as last composed; `nil` until then, or when unknown.
    private let shownKeys = Mutex<[String: Int]?>(nil)

    /// A hint for the live read of `query`.
    init(query: QueryDescription, primaryKeys: PrimaryKeys) {
        filters = query.filters
        keys = OverlayKeys(table: query.table, primaryKeys: primaryKeys)
        evaluator = FilterEvaluator(keyColumns: Set(keys.columns))
    }

    /// Records how the keys of the read's rows changed in a composition (`nil`: unknown).
    func composed(_ change: ListKeys?) {
        shownKeys.withLock { shown in
            switch change {
            case nil:
                shown = nil
            case .all(let keys):
                shown = keys
            case .added(let keys):
                for key in keys { shown?[key] = 0 }
            }
        }
    }

    /// Whether `facts` may change what the read shows: `false` only when they differ from the
    /// facts sent before by appended INSERTs that none of the read's filters admit and whose
    /// rows match no row the read holds.
    func mayChange(_ facts: TableFacts) -> Bool {
        guard let before = facts.appendedSince, facts.queued.extends(before) else { return true }
        return shownKeys.withLock { shown in
            guard let shown else { return true }
            for write in facts.queued.writes(after: before) where write.applies(to: facts.owner) {
                guard write.operation == .insert else { return true }
                for row in write.rows {
                    if !filters.isEmpty, evaluator.evaluate(filters, on: row) == .false {
                        if let key = keys.indexKey(of: row), shown[key] != nil { return true }
                        continue
                    }
                    return true
                }
            }
            return false
        }
    }
}
