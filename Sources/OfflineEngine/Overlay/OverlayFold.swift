import Foundation

/// A cached list with writes laid over it that later queued writes can be added to, so a live
/// read pays once for each new write instead of laying the whole queue again on every change.
///
/// Laying writes is a fold, oldest first: adding the writes queued since to the fold of the
/// earlier ones gives what ``Overlay/apply(_:to:otherLists:)`` gives for all of them. The fold
/// holds only while nothing else changed (the list's rows, the replay log, the other lists, the
/// user): the engine drops it then and builds a new one.
struct OverlayFold<Evaluator: RowFilterEvaluating> {
    private var working: OverlayWorkingList<Evaluator>
    private var pending: Bool
    /// Whether a replayed write would have moved in a row read with other columns (only
    /// replayed writes make a fetch due, and they are all laid in `init`).
    private var refetchIsDue: Bool
    /// Whether an UPDATE was among the writes it was made with. Only an UPDATE can move a row
    /// into the list, so only then does it hold the rows outside the list (the table's other
    /// lists, rows writes made that the list's filters refuse); a fold made without one cannot
    /// lay an UPDATE and is made again instead.
    let laysUpdates: Bool

    /// Lays `replayed` (the list's unseen replayed writes) and then `queued` over `list`; all
    /// are writes to the list's table, oldest first. `related`: the cached lists of the tables the
    /// list's table declares foreign keys to (see `DeclaredEmbeds`).
    init(
        list: CachedList, otherLists: [CachedList], primaryKeys: PrimaryKeys, replayed: [Mutation],
        queued: [Mutation], related: [String: [CachedList]] = [:]
    ) {
        let writes = replayed + queued
        laysUpdates = writes.contains { $0.operation == .update }
        working = OverlayWorkingList(
            list: list, otherLists: otherLists, primaryKeys: primaryKeys, writes: writes,
            indexEveryRow: true, tracksOutside: laysUpdates, related: related)
        pending = false
        refetchIsDue = false
        for (position, mutation) in writes.enumerated() {
            let refetches = working.refetches
            if working.apply(mutation) && position >= replayed.count { pending = true }
            if working.refetches > refetches && position < replayed.count { refetchIsDue = true }
        }
    }

    /// Lays `writes`, queued after those laid so far, oldest first; returns whether the rows
    /// changed, or `nil` (laying nothing) when they hold an UPDATE and the fold was made without
    /// one (see ``laysUpdates``): then a new fold must be made from every write.
    mutating func extend(with writes: [Mutation]) -> Bool? {
        if !laysUpdates, writes.contains(where: { $0.operation == .update }) { return nil }
        var changed = false
        for mutation in writes where working.apply(mutation) {
            pending = true
            changed = true
        }
        return changed
    }

    /// Whether the list holds a row with index key `key` (see `OverlayKeys.indexKey(of:)`).
    func holds(key: String) -> Bool { working.holds(key: key) }

    /// The rows as they stand, whether a queued write changed them, and whether the list must be
    /// fetched again.
    var result: OverlayResult {
        result(rows: QueryRows(working.rows))
    }

    /// The result, its rows gathered in storage shared with the rows gathered before when only
    /// rows joined since (so a publish costs the rows that joined).
    mutating func gatherResult() -> OverlayResult {
        result(rows: working.gatherRows())
    }

    /// The result with `rows` standing for the rows (the caller's copy of them, when it knows
    /// they did not change), so they are not gathered again.
    func result(rows: QueryRows) -> OverlayResult {
        OverlayResult(
            rows: rows, hasPendingMutations: pending, needsRefetch: working.needsRefetch,
            refetchIsDue: refetchIsDue)
    }
}
