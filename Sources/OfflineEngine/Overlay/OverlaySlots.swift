/// A list's rows while writes are laid over it: the cached rows are shared, not copied; rows
/// patched or removed are noted beside them, and rows that join are kept after them.
struct OverlaySlots {
    /// The cached rows, never changed.
    private let base: [Row]
    /// Which cached rows left.
    private var removed: [Bool]
    private var removedCount = 0
    /// Cached rows replaced by a patched version, by position; empty until the first patch.
    private var replaced: [Row?] = []
    /// Rows that joined after the cached ones; `nil` where one left again.
    private var appended: [Row?] = []
    /// The rows as last gathered, and how many slots there were then; `nil` once a slot before
    /// that count changed, so the next gathering starts over.
    private var gathered: (rows: QueryRows, slots: Int)?

    /// Slots for a list's cached rows.
    init(_ rows: [Row]) {
        base = rows
        removed = [Bool](repeating: false, count: rows.count)
    }

    /// Every slot position, cached rows first.
    var indices: Range<Int> { 0..<(base.count + appended.count) }

    /// The position the next appended row takes.
    var count: Int { base.count + appended.count }

    /// The row at a position, or `nil` where it left.
    subscript(slot: Int) -> Row? {
        get {
            if slot >= base.count { return appended[slot - base.count] }
            if removed[slot] { return nil }
            return replaced.isEmpty ? base[slot] : replaced[slot] ?? base[slot]
        }
        set {
            if let gathered, slot < gathered.slots { self.gathered = nil }
            if slot >= base.count {
                appended[slot - base.count] = newValue
                return
            }
            if let newValue {
                if replaced.isEmpty { replaced = [Row?](repeating: nil, count: base.count) }
                replaced[slot] = newValue
            } else {
                if !removed[slot] { removedCount += 1 }
                removed[slot] = true
                if !replaced.isEmpty { replaced[slot] = nil }
            }
        }
    }

    /// The first position whose row passes `predicate`.
    func firstIndex(where predicate: (Row?) -> Bool) -> Int? {
        indices.first { predicate(self[$0]) }
    }

    /// Adds a row after the others.
    mutating func append(_ row: Row) {
        appended.append(row)
    }

    /// The rows, in order, sharing storage with the rows gathered before when only rows joined
    /// since: then this costs the rows that joined, not the list.
    mutating func gather() -> QueryRows {
        if let gathered {
            let joined = appended[(gathered.slots - base.count)...].compactMap { $0 }
            let rows = gathered.rows.appending(joined)
            self.gathered = (rows, count)
            return rows
        }
        let all = rows
        // Room to grow: the rows that join later are written after these in place.
        let rows = QueryRows(all, reservingCapacity: all.count * 2 + 16)
        gathered = (rows, count)
        return rows
    }

    /// The rows, in order.
    var rows: [Row] {
        var result: [Row]
        if removedCount == 0 && replaced.isEmpty {
            result = base
        } else {
            result = []
            result.reserveCapacity(base.count - removedCount + appended.count)
            let hasReplacements = !replaced.isEmpty
            for slot in base.indices where !removed[slot] {
                result.append(hasReplacements ? replaced[slot] ?? base[slot] : base[slot])
            }
        }
        for case let row? in appended { result.append(row) }
        return result
    }
}
