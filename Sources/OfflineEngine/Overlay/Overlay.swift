/// What a read shows: its cached rows with the user's writes that have not reached them laid on
/// top, oldest first.
struct OverlayResult: Sendable, Hashable {
    /// The rows to show.
    var rows: QueryRows
    /// Whether a queued write changed the rows (not merely whether one exists).
    var hasPendingMutations: Bool
    /// Whether a row read with other columns than the list reads (or with other embed options)
    /// would have joined it, so the list must be fetched again to show it.
    var needsRefetch: Bool
    /// Whether one of the writes behind `needsRefetch` has synced (a replayed write), so the
    /// fetch is due now.
    ///
    /// Only then: while such a write waits in the queue, a fetch cannot show its row (the server
    /// does not hold the write yet, so the row does not match the list) and a known-down network
    /// would only pause it. Until the write syncs, the list shows its rows without that row and,
    /// unless another queued write changed them, `hasPendingMutations` is false; the row shows
    /// once the synced write's fetch answers.
    var refetchIsDue = false
}

/// An overlay's result for a count: also the rows its filters admitted outside the list that
/// the writes moved out or deleted (see ``OverlayWorkingList/leftBeyond``), and whether a
/// queued write did so.
struct CountedOverlayResult: Sendable, Hashable {
    var result: OverlayResult
    var leftBeyond = 0
    var queuedWriteLeftBeyond = false
}

/// Lays writes over cached lists and patches accepted writes into them. Pure: no I/O, no
/// `await`; `Evaluator` answers filters (`FilterEvaluator` in the engine).
///
/// How the reference's open sentences are read here:
///
/// - Writes laid over a list: the replayed writes it has not seen (tick greater than its fetch
///   tick, among the table's newest 1,000), oldest first, then the queued writes of the current
///   user and of no user, in queue order. Only queued writes count for `hasPendingMutations`,
///   and only when they changed the list's rows (a row joined, left or took new values).
/// - INSERT and UPSERT: a row merges into the list's row with the same conflict columns (an
///   upsert that names them), else the row with the same primary key (so one key never shows
///   twice), else joins after the list's rows when the list's filters are not provably false. A
///   row without its key columns (an upsert without `onConflict` on a table without `id`) can
///   match nothing and joins. A merged row whose list filters become provably false leaves.
/// - UPDATE: rows the list holds that the filter provably matches are patched in place; one
///   whose list filters become provably false leaves. A row the list does not hold joins when
///   the filter provably matches it and the list's filters go from provably false to not false:
///   rows of the table's other cached lists (the most recently fetched version) and rows earlier
///   writes in the overlay made or moved out. Rows that join this way come after the list's rows,
///   in order of their keys. A row read by another list with other columns, or other embed
///   options, does not join: `needsRefetch` is set instead, and `refetchIsDue` once the write
///   that would have moved it in has synced (the engine fetches the list again then).
/// - Queued rows are written rows, not read ones: they join any list, with the columns written
///   and, in a list that embeds the row their foreign key names, that embed as a cached row of
///   the table with the same foreign key value holds it (`OneRowEmbeds`).
///   Rows read (returned by the server, or held by another list) join only lists whose every
///   column they carry (`ReadShape`): a `*` list takes only rows read with `*`.
/// - An accepted write (`patch`): returned rows are merged over the sent row with the same key
///   (or the sent row in the same position when it has no key); with none returned the sent rows
///   are laid in. An UPDATE or DELETE without returned rows uses its filter on the rows cached
///   lists hold; if it cannot be evaluated on one, an UPDATE makes every read of the table stale,
///   a DELETE the lists holding such a row. Writes to a schema other than `public` make every
///   read of a table of that name stale. `.onlineOnly` writes are never passed in.
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
        applyCounting(writes, to: list, otherLists: otherLists).result
    }

    /// ``apply(_:to:otherLists:)``, with what a count needs besides the rows; `countsBeyond`:
    /// the list is not the whole read, and rows its filters admit outside it were counted.
    func applyCounting(
        _ writes: [OverlayWrite], to list: CachedList, otherLists: [CachedList] = [],
        countsBeyond: Bool = false
    ) -> CountedOverlayResult {
        let laid = writes.filter {
            list.query.reads(schema: $0.mutation.schema, table: $0.mutation.table)
        }
        if laid.isEmpty {
            return CountedOverlayResult(
                result: OverlayResult(
                    rows: QueryRows(list.rows), hasPendingMutations: false, needsRefetch: false))
        }
        var working = OverlayWorkingList<Evaluator>(
            list: list, otherLists: otherLists, primaryKeys: primaryKeys, writes: laid.map(\.mutation))
        working.countsBeyond = countsBeyond
        var pending = false
        var refetchIsDue = false
        var queuedLeftBeyond = false
        for write in laid {
            let (refetches, leftBeyond) = (working.refetches, working.leftBeyond.count)
            if working.apply(write.mutation) && write.isQueued { pending = true }
            if working.refetches > refetches && !write.isQueued { refetchIsDue = true }
            if working.leftBeyond.count != leftBeyond && write.isQueued { queuedLeftBeyond = true }
        }
        let result = OverlayResult(
            rows: QueryRows(working.rows), hasPendingMutations: pending, needsRefetch: working.needsRefetch,
            refetchIsDue: refetchIsDue)
        return CountedOverlayResult(
            result: result, leftBeyond: working.leftBeyond.count, queuedWriteLeftBeyond: queuedLeftBeyond)
    }
}

extension Overlay where Evaluator == FilterEvaluator {
    /// The engine's overlay, answering filters with `FilterEvaluator`.
    static func engine(primaryKeys: PrimaryKeys) -> Overlay<FilterEvaluator> {
        Overlay<FilterEvaluator>(primaryKeys: primaryKeys)
    }
}
