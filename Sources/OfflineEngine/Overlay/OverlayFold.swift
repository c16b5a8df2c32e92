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
    /// The queued writes laid so far, oldest first.
    private var queuedIDs: [UUID]
    private var pending: Bool
    /// Whether a replayed write would have moved in a row read with other columns (only
    /// replayed writes make a fetch due, and they are all laid in `init`).
    private var refetchIsDue: Bool
    /// Whether the rows of the table's other lists were laid in (they matter only to an UPDATE,
    /// which can move them into the list).
    let holdsOtherLists: Bool

    /// Lays `replayed` (the list's unseen replayed writes) and then `queued` over `list`; all
    /// are writes to the list's table, oldest first.
    init(
        list: CachedList, otherLists: [CachedList], primaryKeys: PrimaryKeys, replayed: [Mutation],
        queued: [Mutation]
    ) {
        working = OverlayWorkingList(
            list: list, otherLists: otherLists, primaryKeys: primaryKeys, writes: replayed + queued,
            indexEveryRow: true)
        pending = false
        refetchIsDue = false
        holdsOtherLists = !otherLists.isEmpty
        for position in 0..<(replayed.count + queued.count) {
            let refetches = working.refetches
            if working.apply(writeAt: position) && position >= replayed.count { pending = true }
            if working.refetches > refetches && position < replayed.count { refetchIsDue = true }
        }
        queuedIDs = queued.map(\.id)
    }

    /// Lays the writes of `queued` past those laid so far. Returns `false`, laying nothing, when
    /// `queued` does not begin with the writes laid so far (one left the queue): build anew.
    mutating func extend(to queued: [Mutation]) -> Bool {
        guard queued.count >= queuedIDs.count,
            zip(queuedIDs, queued).allSatisfy({ $0 == $1.id })
        else { return false }
        for mutation in queued.dropFirst(queuedIDs.count) {
            if working.append(mutation) { pending = true }
            queuedIDs.append(mutation.id)
        }
        return true
    }

    /// The rows as they stand, whether a queued write changed them, and whether the list must be
    /// fetched again.
    var result: OverlayResult {
        OverlayResult(
            rows: working.rows, hasPendingMutations: pending, needsRefetch: working.needsRefetch,
            refetchIsDue: refetchIsDue)
    }
}
