/// What a read shows: its cached rows with the user's writes that have not reached them laid on
/// top, oldest first.
struct OverlayResult: Sendable, Hashable {
    /// The rows to show.
    var rows: [Row]
    /// Whether a queued write changed the rows (not merely whether one exists).
    var hasPendingMutations: Bool
    /// Whether a row read with other columns than the list reads would have joined it, so the
    /// list should be fetched again.
    var needsRefetch: Bool
}

/// Lays writes over cached lists and patches accepted writes into them. Pure: no I/O, no
/// `await`; `Evaluator` answers filters (`FilterEvaluator` in the engine).
struct Overlay<Evaluator: RowFilterEvaluating>: Sendable {
    /// Which columns identify a row in each table.
    let primaryKeys: PrimaryKeys

    /// An overlay for tables keyed by `primaryKeys`.
    init(primaryKeys: PrimaryKeys = PrimaryKeys()) {
        self.primaryKeys = primaryKeys
    }

    /// What a live read of `list` shows.
    ///
    /// - Parameters:
    ///   - list: the cached list (query, rows, fetch tick).
    ///   - otherLists: the other cached lists of the table, whose rows an UPDATE can move in.
    ///   - queue: the whole mutation queue, oldest first (other owners' writes are skipped).
    ///   - replayLog: the table's replay log.
    ///   - ownerID: the signed-in user, or `nil`.
    func read(
        _ list: CachedList, otherLists: [CachedList] = [], queue: [Mutation], replayLog: [ReplayEntry],
        ownerID: String?
    ) -> OverlayResult {
        let writes = OverlayWrites.ordered(
            replayLog: replayLog, fetchTick: list.fetchTick, queue: queue, ownerID: ownerID)
        return apply(writes, to: list, otherLists: otherLists)
    }

    /// Lays `writes` (oldest first) over `list`; writes to other tables are skipped.
    func apply(_ writes: [OverlayWrite], to list: CachedList, otherLists: [CachedList] = []) -> OverlayResult
    {
        let laid = writes.filter {
            list.query.reads(schema: $0.mutation.schema, table: $0.mutation.table)
        }
        if laid.isEmpty {
            return OverlayResult(rows: list.rows, hasPendingMutations: false, needsRefetch: false)
        }
        var working = OverlayWorkingList<Evaluator>(
            list: list, otherLists: otherLists, primaryKeys: primaryKeys, writes: laid.map(\.mutation))
        var pending = false
        for write in laid {
            if working.apply(write.mutation) && write.isQueued { pending = true }
        }
        return OverlayResult(
            rows: working.rows, hasPendingMutations: pending, needsRefetch: working.needsRefetch)
    }
}

extension Overlay where Evaluator == FilterEvaluator {
    /// The engine's overlay, answering filters with `FilterEvaluator`.
    static func engine(primaryKeys: PrimaryKeys) -> Overlay<FilterEvaluator> {
        Overlay<FilterEvaluator>(primaryKeys: primaryKeys)
    }
}
