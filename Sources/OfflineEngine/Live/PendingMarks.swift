/// A live read's marks: the keys of its rows that a queued write touches
/// (``QuerySnapshot/pendingRowIDs``), worked out beside the read's fold from the same writes and
/// rows as the snapshot, so a snapshot's rows and its marks never disagree.
///
/// Kept as the fold is: made anew with it from every queued write laid, then extended by the
/// writes queued since at the cost of their own keys. Only when a row left or changed in place
/// (the rows were gathered anew) are the marks checked again against the rows, at the cost of
/// the marks. While the fold lays UPDATEs a row may join through a write that does not name its
/// key (an UPDATE not pinned to keys moves it in), so the keys every laid write touches are kept
/// then, as the fold keeps the rows outside its list.
struct PendingMarks: Sendable {
    private let primaryKeys: PrimaryKeys
    /// Every key the laid queued writes touch, by index key; kept only while the fold lays UPDATEs.
    private var touched: [String: PendingRowIDs.Mark]?
    /// The marks of the last composition.
    private(set) var ids = PendingRowIDs()

    /// Marks for the rows of a table keyed by `primaryKeys`.
    init(primaryKeys: PrimaryKeys) {
        self.primaryKeys = primaryKeys
    }

    /// Marks anew: the keys `queued` (every queued write laid, oldest first) touch that the rows
    /// hold (`holds`, by index key). `keepsTouched`: whether the fold lays UPDATEs.
    mutating func reset(_ queued: [Mutation], keepsTouched: Bool, holds: (String) -> Bool) {
        var all = [String: PendingRowIDs.Mark]()
        for write in queued {
            for mark in marks(of: write) { all[mark.key] = mark }
        }
        touched = keepsTouched ? all : nil
        ids = PendingRowIDs(marks: all.values.filter { holds($0.key) })
    }

    /// Extends the marks with `added`, laid after the writes so far. `rowsOnlyJoined`: whether
    /// the rows only gained rows since the last composition (none left or changed).
    mutating func extend(with added: [Mutation], rowsOnlyJoined: Bool, holds: (String) -> Bool) {
        var new = [PendingRowIDs.Mark]()
        for write in added { new += marks(of: write) }
        if touched != nil {
            for mark in new { touched?[mark.key] = mark }
        }
        if rowsOnlyJoined {
            ids = ids.adding(new.filter { holds($0.key) })
            return
        }
        let candidates = touched.map { Array($0.values) } ?? (ids.marks + new)
        var seen = Set<String>()
        ids = PendingRowIDs(marks: candidates.filter { holds($0.key) && seen.insert($0.key).inserted })
    }

    /// The keys `write` touches (see `PendingMutation.rowKeys(of:primaryKeys:)`); none for a write
    /// whose stored copy cannot be read (it lays nothing).
    private func marks(of write: Mutation) -> [PendingRowIDs.Mark] {
        guard write.isReadable else { return [] }
        return PendingMutation.rowKeys(of: write, primaryKeys: primaryKeys).map { key in
            PendingRowIDs.Mark(key: OverlayKeys.indexKey(values: key.values), id: key.description)
        }
    }
}
