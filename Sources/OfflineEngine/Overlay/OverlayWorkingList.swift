/// One cached list while writes are laid over it, oldest first: its rows indexed by key, and the
/// table's rows known outside it (other cached lists, rows earlier writes made or moved out),
/// which an UPDATE can move into it.
struct OverlayWorkingList<Evaluator: RowFilterEvaluating> {
    /// Where a row known outside the list came from.
    enum Origin: Sendable, Hashable {
        /// A row a write made: it carries what was written and may join any list.
        case written
        /// A row read by a list with this shape: it joins only a list that reads the same.
        case read(ReadShape)
    }

    /// A row of the table that the list does not hold.
    struct Outside: Sendable, Hashable {
        /// The row, with the writes laid so far.
        var row: Row
        /// Where it came from.
        var origin: Origin
    }

    private let filters: [Filter]
    /// The values the list's filters give its fetched rows (the first `fetchedCount` slots).
    private let implied: ImpliedValues
    private let fetchedCount: Int
    private let shape: ReadShape
    private let keys: OverlayKeys
    private let evaluator: Evaluator
    /// The embeds of one row the list reads, laid on rows that join it without them.
    private let embeds: OneRowEmbeds?
    /// The list's rows in order; `nil` where a row left.
    private var slots: OverlaySlots
    /// The slot of each keyed row in the list.
    private var index: [String: Int]
    /// Keyed rows of the table the list does not hold (never a key in `index`); kept only when
    /// `tracksOutside`.
    private var outside: [String: Outside]
    /// Whether rows outside the list are kept. Only an UPDATE reads them (to move one in), so a
    /// list laid without one keeps none: a live read's fold would otherwise hold most of the
    /// table's queued inserts, which its filters refuse.
    private let tracksOutside: Bool
    /// How many times an UPDATE would have moved in a row read with other columns, which did
    /// not join: the list must be fetched again (once that write has synced) to show it.
    private(set) var refetches = 0
    /// Whether rows known outside the list that its filters provably admit are counted beyond
    /// it (a `head: true` count, a page: the server's count held them), for ``leftBeyond``.
    var countsBeyond = false
    /// With ``countsBeyond``, the keys of rows counted beyond the list that a write provably
    /// moved out of its filters, or deleted. One moved back in is counted beyond again: it
    /// neither joins the list nor stays here.
    private(set) var leftBeyond: Set<String> = []
    /// Set once two of the list's rows share a key (an upsert matched by other conflict columns
    /// took another row's key, say): from then on rows are found by scanning, not by the index.
    private var hasDuplicateKeys = false

    /// The working state of `list`, with the rows of `otherLists` (of any table; only the
    /// list's own table is used) as rows an UPDATE can move in, the most recently fetched first.
    ///
    /// When every write finds its rows by key (`writes`: the writes that will be applied), only
    /// the rows with those keys are indexed: the rest can never be reached.
    ///
    /// `indexEveryRow` indexes every row whatever the writes reach, so writes can be laid
    /// later with ``apply(_:)``. `tracksOutside: false` keeps no rows outside the list, for
    /// writes without an UPDATE. `related` holds the cached lists of the tables the list's
    /// table declares foreign keys to, by name, for the embeds of rows joining it.
    init(
        list: CachedList, otherLists: [CachedList], primaryKeys: PrimaryKeys, writes: [Mutation],
        indexEveryRow: Bool = false, tracksOutside: Bool = true, related: [String: [CachedList]] = [:]
    ) {
        self.tracksOutside = tracksOutside
        keys = OverlayKeys(table: list.query.table, primaryKeys: primaryKeys)
        evaluator = Evaluator(keyColumns: Set(keys.columns))
        filters = list.query.filters
        implied = ImpliedValues(list.query.filters)
        fetchedCount = list.rows.count
        shape = ReadShape(list.query)
        slots = OverlaySlots(list.rows)
        // Only for a table the app gave settings: elsewhere the reference's limit holds.
        let embeds = primaryKeys.foreignKeys[list.query.table].flatMap { foreignKeys in
            OneRowEmbeds.mayEmbed(list.query.select)
                ? OneRowEmbeds(
                    list: list.query, sources: [list] + otherLists, foreignKeys: foreignKeys,
                    related: related,
                    keyColumns: primaryKeys.columns(for:)) : nil
        }
        self.embeds = embeds?.items.isEmpty == false ? embeds : nil
        let keys = keys
        // The writes are laid by the caller (`apply(_:)`), not kept: a live read's fold would
        // otherwise hold a copy of every queued write of its table.
        let reached = indexEveryRow ? nil : OverlayWorkingList.keysReached(by: writes, keys: keys)
        var index = [String: Int](minimumCapacity: reached?.keys.count ?? list.rows.count)
        for (slot, row) in list.rows.enumerated() where reached?.isEmpty != true {
            guard let key = keys.indexKey(of: implied.filling(row)) else { continue }
            if let reached, !reached.contains(key) { continue }
            if index[key] == nil { index[key] = slot } else { hasDuplicateKeys = true }
        }
        self.index = index
        outside = [:]
        let sameTable = otherLists.filter {
            tracksOutside && $0.query.reads(schema: list.query.schema, table: list.query.table)
        }
        for other in sameTable.sorted(by: { $0.fetchTick < $1.fetchTick }) {
            let origin = Origin.read(ReadShape(other.query))
            for row in other.rows {
                guard let key = keys.indexKey(of: row) else { continue }
                if let reached, !reached.contains(key) { continue }
                if index[key] == nil {
                    outside[key] = Outside(row: row, origin: origin)
                }
            }
        }
    }

    /// Every key `writes` can reach, or `nil` when one reaches rows by other columns (an UPDATE
    /// or DELETE not pinned to keys).
    private static func keysReached(
        by writes: [Mutation], keys: OverlayKeys
    ) -> ReachedKeys? {
        // Room to spare keeps probes short for the many keys that are not there.
        var reached = ReachedKeys(minimumCapacity: writes.count * 4)
        for write in writes {
            switch write.operation {
            case .insert, .upsert:
                for row in write.rows {
                    if let key = keys.indexKey(of: row) { reached.insert(key) }
                }
            case .update, .delete:
                guard let pin = keys.pin(by: write.filters) else { return nil }
                for key in pin.keys { reached.insert(key) }
            }
        }
        return reached
    }

    /// The list's rows now.
    var rows: [Row] { slots.rows }

    /// The list's rows now, sharing storage with those gathered before (see
    /// `OverlaySlots.gather()`).
    mutating func gatherRows() -> QueryRows { slots.gather() }

    /// Whether the list holds a row with index key `key`: by the index, or by scanning once two
    /// rows share a key.
    func holds(key: String) -> Bool {
        guard hasDuplicateKeys else { return index[key] != nil }
        return slots.firstIndex { $0.flatMap(keys.indexKey(of:)) == key } != nil
    }

    /// Whether a row a write would have moved in did not join, so the list must be fetched again.
    var needsRefetch: Bool { refetches > 0 }

    /// Lays one more write over the list, after those laid so far; returns whether the list's
    /// rows changed. Writes are laid oldest first; a list made with `writes` lays exactly those
    /// (their keys are the ones indexed), one made with `indexEveryRow` may lay any after them.
    mutating func apply(_ mutation: Mutation) -> Bool {
        // Unreadable stored bytes: nothing to lay (replay rejects the write).
        guard mutation.isReadable else { return false }
        switch mutation.operation {
        case .insert:
            var changed = false
            for row in mutation.appliedRows where place(row, conflictColumns: nil, isUpsert: false) {
                changed = true
            }
            return changed
        case .upsert:
            var conflictColumns = mutation.onConflict
            if conflictColumns?.isEmpty == true || conflictColumns == keys.columns { conflictColumns = nil }
            var changed = false
            for row in mutation.appliedRows
            where place(
                row, conflictColumns: conflictColumns, isUpsert: true, shownOnly: mutation.shownOnlyColumns)
            {
                changed = true
            }
            return changed
        case .update:
            let patch = mutation.rows.reduce(Row([:])) { $0.merging($1) }
            return update(matching: mutation.filters, pin: keys.pin(by: mutation.filters), with: patch)
        case .delete:
            return delete(matching: mutation.filters, pin: keys.pin(by: mutation.filters))
        }
    }

    private func admits(_ row: Row) -> Truth {
        filters.isEmpty ? .true : evaluator.evaluate(filters, on: row)
    }

    /// An INSERT's or UPSERT's row: merged into the row with the same conflict columns, else the
    /// row with the same key, else joining the list when its filters may admit it. An upsert
    /// merged into a row keeps the row's own value in the `shownOnly` columns the device made
    /// (the server keeps it: they are not sent).
    private mutating func place(
        _ row: Row, conflictColumns: [String]?, isUpsert: Bool, shownOnly: Set<String> = []
    ) -> Bool {
        let key = keys.indexKey(of: row)
        var match: Int?
        if let conflictColumns, let wanted = keys.values(of: row, columns: conflictColumns) {
            match = slots.indices.first { slot in
                slots[slot].flatMap { keys.values(of: known($0, at: slot), columns: conflictColumns) }
                    == wanted
            }
        }
        if match == nil, let key {
            // Without a row with the same conflict columns, the row with the same key: the server
            // never holds two rows with one key, so the list must not show two.
            match =
                hasDuplicateKeys
                ? slots.indices.first { slot in
                    slots[slot].flatMap { keys.indexKey(of: known($0, at: slot)) } == key
                }
                : index[key]
        }
        if let match, let old = slots[match] {
            let laid = row.keepingMade(shownOnly, of: old)
            return replace(match, old: old, with: old.merging(laid), written: laid)
        }
        if let key, tracksOutside {
            if isUpsert, let known = outside[key] {
                outside[key] = Outside(
                    row: known.row.merging(row.keepingMade(shownOnly, of: known.row)), origin: known.origin)
            } else {
                outside[key] = Outside(row: row, origin: .written)
            }
        }
        guard admits(row) != .false else { return false }
        append(row, key: key)
        return true
    }

    /// An UPDATE: patches the list's rows the filter provably matches (a row whose list filters
    /// then fail leaves), then the rows outside it, moving in those whose membership changes from
    /// provably out to possibly in (in order of their key values).
    private mutating func update(matching updateFilters: [Filter], pin: OverlayKeys.Pin?, with patch: Row)
        -> Bool
    {
        let pin = hasDuplicateKeys ? nil : pin
        let pinned = pin?.keys
        let listTargets = pinned.map { $0.compactMap { index[$0] }.sorted() } ?? Array(slots.indices)
        let outsideTargets = (pinned.map { $0.filter { outside[$0] != nil } } ?? Array(outside.keys))
            .sorted()
        var changed = false
        for slot in listTargets {
            guard let row = slots[slot], provablyMatches(row, updateFilters, pin, at: slot) else { continue }
            if replace(slot, old: row, with: row.merging(patch), written: patch) { changed = true }
        }
        for key in outsideTargets {
            guard let known = outside[key], provablyMatches(known.row, updateFilters, pin) else {
                continue
            }
            let patched = known.row.merging(patch)
            outside[key] = nil
            let (before, after) = (admits(known.row), admits(patched))
            if countsBeyond && before == .true && after == .false { leftBeyond.insert(key) }
            let newKey = keys.indexKey(of: patched) ?? key
            if before == .false && after != .false {
                if countsBeyond, leftBeyond.remove(key) != nil {
                    // Back among the rows the count held beyond the list.
                    outside[newKey] = Outside(row: patched, origin: known.origin)
                    continue
                }
                if may(known, join: patched) {
                    append(patched, key: newKey)
                    changed = true
                    continue
                }
                refetches += 1
            }
            if index[newKey] == nil { outside[newKey] = Outside(row: patched, origin: known.origin) }
        }
        return changed
    }

    /// Whether an UPDATE's or DELETE's filters provably match a row. A row found through a key
    /// the filters pin, when they say nothing else and the key is text, matches without asking
    /// the evaluator (exactly equal text, UUIDs in any case, is equal under every column type).
    /// Whether `filters` provably match `row`; for the list's fetched row at `slot`, the
    /// conditions the list's own filters decide count as true.
    private func provablyMatches(
        _ row: Row, _ filters: [Filter], _ pin: OverlayKeys.Pin?, at slot: Int? = nil
    )
        -> Bool
    {
        if let pin, pin.onlyKeys, let keyColumn = keys.columns.first, case .string? = row[keyColumn] {
            return true
        }
        guard let slot, slot < fetchedCount else { return evaluator.evaluate(filters, on: row) == .true }
        let undecided = implied.undecided(filters, on: row)
        return undecided.isEmpty || evaluator.evaluate(undecided, on: row) == .true
    }

    /// `row`, at `slot`, with the values the list's filters imply when it is a fetched row.
    private func known(_ row: Row, at slot: Int) -> Row {
        slot < fetchedCount ? implied.filling(row) : row
    }

    /// Whether a row known outside the list may join it once patched.
    private func may(_ known: Outside, join patched: Row) -> Bool {
        switch known.origin {
        case .written:
            return true
        case .read(let readShape):
            return readShape.mayJoin(shape, rowColumns: known.row.columns)
        }
    }

    /// A DELETE: removes the rows its filter provably matches, in the list and outside it.
    private mutating func delete(matching deleteFilters: [Filter], pin: OverlayKeys.Pin?) -> Bool {
        let pin = hasDuplicateKeys ? nil : pin
        let pinned = pin?.keys
        let listTargets = pinned.map { $0.compactMap { index[$0] } } ?? Array(slots.indices)
        var changed = false
        for slot in listTargets {
            guard let row = slots[slot], provablyMatches(row, deleteFilters, pin, at: slot) else { continue }
            remove(slot, row: row)
            changed = true
        }
        let outsideTargets = pinned.map { $0.filter { outside[$0] != nil } } ?? Array(outside.keys)
        for key in outsideTargets {
            if let known = outside[key], provablyMatches(known.row, deleteFilters, pin) {
                outside[key] = nil
                if countsBeyond && admits(known.row) == .true { leftBeyond.insert(key) }
            }
        }
        return changed
    }

    /// Puts `merged` in place of the list's row at `slot`, or moves it out when the list's
    /// filters provably fail for it; returns whether the rows changed.
    private mutating func replace(_ slot: Int, old: Row, with merged: Row, written: Row) -> Bool {
        if admits(merged) == .false {
            remove(slot, row: old)
            if tracksOutside, let key = keys.indexKey(of: known(merged, at: slot)) {
                outside[key] = Outside(row: merged, origin: .read(shape))
            }
            return true
        }
        guard merged != old else { return false }
        slots[slot] = merged
        // Only a write that carries a key column can change the row's key.
        guard keys.columns.contains(where: { written[$0] != nil }) else { return true }
        let oldKey = keys.indexKey(of: known(old, at: slot))
        let newKey = keys.indexKey(of: known(merged, at: slot))
        if oldKey != newKey {
            if let oldKey, index[oldKey] == slot { index[oldKey] = nil }
            if let newKey {
                if let other = index[newKey], other != slot, slots[other] != nil { hasDuplicateKeys = true }
                index[newKey] = slot
                outside[newKey] = nil
            }
        }
        return true
    }

    private mutating func remove(_ slot: Int, row: Row) {
        slots[slot] = nil
        if let key = keys.indexKey(of: known(row, at: slot)), index[key] == slot { index[key] = nil }
    }

    /// Appends a row joining the list, with the embeds of one row it lacks (see ``OneRowEmbeds``).
    private mutating func append(_ row: Row, key: String?) {
        slots.append(embeds?.filling(row) ?? row)
        if let key {
            if let other = index[key], slots[other] != nil { hasDuplicateKeys = true }
            index[key] = slots.count - 1
            outside[key] = nil
        }
    }
}
