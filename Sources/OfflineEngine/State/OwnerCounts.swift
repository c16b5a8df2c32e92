/// Queued writes per owner (`nil`: owner-less writes), as the queue keeps and publishes them.
///
/// A device holds the writes of a handful of users at most, and every queued write changes a
/// count (twice: as it joins and once stored), so the counts are a short list kept in the owners'
/// order and searched in turn: comparing an owner's id is cheaper than hashing it, which a
/// dictionary did at every write (about 2% of an offline `execute()`'s samples in a profile of
/// `Benchmarks scale.enqueue`'s loop).
/// Kept in order, two equal sets of counts are the same list, so equality is the list's.
struct OwnerCounts: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    private struct Entry: Sendable, Hashable {
        var owner: String?
        var count: Int
    }

    /// Ordered by owner, owner-less first; no entry has a count of zero.
    private var entries: [Entry] = []

    init() {}

    init(dictionaryLiteral elements: (String?, Int)...) {
        for (owner, count) in elements { add(count, to: owner) }
    }

    /// Whether no owner has a write counted.
    var isEmpty: Bool { entries.isEmpty }

    /// The owners with writes counted.
    var owners: [String?] { entries.map(\.owner) }

    /// The writes counted for `owner`; `nil` when none.
    subscript(owner: String?) -> Int? {
        entries.first { $0.owner == owner }?.count
    }

    /// Adds `delta` (which may be negative) to `owner`'s count; a count that reaches zero goes.
    mutating func add(_ delta: Int, to owner: String?) {
        if let index = entries.firstIndex(where: { $0.owner == owner }) {
            entries[index].count += delta
            if entries[index].count <= 0 { entries.remove(at: index) }
        } else if delta > 0 {
            let place = entries.firstIndex { Self.precedes(owner, $0.owner) } ?? entries.endIndex
            entries.insert(Entry(owner: owner, count: delta), at: place)
        }
    }

    /// The owners' order: owner-less first, then by id.
    private static func precedes(_ owner: String?, _ other: String?) -> Bool {
        switch (owner, other) {
        case (nil, _): return other != nil
        case (_, nil): return false
        case (let owner?, let other?): return owner < other
        }
    }
}
