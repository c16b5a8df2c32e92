/// The count a counted read shows from the device: the server's count when it was answered,
/// moved by the writes laid over its list that the overlay can decide. Pure: no I/O, no `await`.
///
/// A cached count is kept as the rows it holds beyond its list's rows (``ListEntry/countBeyond``),
/// so whatever moves the list's rows moves the count: a queued or replayed insert its filters
/// admit joins (+1), a delete of a row it holds removes it (−1), an update moves a row out, or in
/// only when the row provably did not match before. A list that is not the whole read (a
/// `head: true` read holds no rows, a range only some) cannot tell whether an upsert's row is
/// already counted, so upserts do not move its count; on a whole list they count as the rows
/// the device shows. A delete of a row the list does not hold leaves the count as cached, unless
/// another cached list shows that row provably matching the read's filters: then the count held
/// it, and an update that moves such a row out of the filters moves the count too (so a row
/// toggled out and back in offline leaves the count where it was).
struct OverlayCount<Evaluator: RowFilterEvaluating>: Sendable {
    /// The overlay that lays the writes.
    let overlay: Overlay<Evaluator>

    /// What a count shows, and whether a queued write moved it.
    struct Shown: Sendable, Hashable {
        /// The count, or `nil` when the device cannot tell it (a range read never counted).
        var count: Int?
        /// Whether a queued write moved the count (its `hasPendingMutations`): one changed the
        /// list's rows, and they are not as many as before (an insert and the delete of the same
        /// row leave the count as the server gave it).
        var moved: Bool
    }

    /// The count of `list` with `writes` (oldest first) laid over it.
    ///
    /// - Parameters:
    ///   - list: the cached list of the counted read (no rows for a `head: true` read).
    ///   - beyond: the rows the server's count held beyond the list's rows, or `nil` when the
    ///     read was not counted.
    ///   - isWhole: whether the list holds every row of the read (no range, not `head: true`);
    ///     such a list never counted shows as many as its rows.
    ///   - writes: the writes laid over the list, oldest first.
    ///   - otherLists: the table's other cached lists, whose rows an update can move in.
    func shown(
        _ list: CachedList, beyond: Int?, isWhole: Bool, writes: [OverlayWrite], otherLists: [CachedList]
    ) -> Shown {
        guard beyond != nil || isWhole else { return Shown(count: nil, moved: false) }
        let laid = isWhole ? writes : writes.filter { $0.mutation.operation != .upsert }
        // A whole list holds every row it counts: a row outside it was never counted.
        let counted = overlay.applyCounting(laid, to: list, otherLists: otherLists, countsBeyond: !isWhole)
        let count = (beyond ?? 0) - counted.leftBeyond + counted.result.rows.count
        let changed = counted.result.hasPendingMutations || counted.queuedWriteLeftBeyond
        return Shown(count: count, moved: changed && count != (beyond ?? 0) + list.rows.count)
    }
}
