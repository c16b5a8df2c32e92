import Foundation
import Synchronization

/// The ids of a snapshot's rows that a queued write touches: the rows a list marks as not yet
/// synced, worked out in the same composition as the rows, so a row and its mark never disagree.
///
/// An id is the row's key as ``RowKey/description`` writes it (a UUID in lower case; the values
/// of a composite key joined by commas), as in ``PendingMutation/rowIDs``:
///
/// ```swift
/// for try await snapshot in client.from("tasks").select().snapshots() {
///     let tasks = try snapshot.result?.decode([Task].self) ?? []
///     for task in tasks {
///         print(snapshot.pendingRowIDs.contains(task.id) ? "☁" : " ", task.title)
///     }
/// }
/// ```
///
/// A live read's snapshots share the ids' storage: when a write only adds marks, the next
/// snapshot's ids extend the previous ones in place, so a publish costs the marks that joined.
public struct PendingRowIDs: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible
{
    private let storage: Storage?
    /// How many rows are marked.
    public let count: Int

    /// No marked rows.
    public init() {
        storage = nil
        count = 0
    }

    /// Marks from ids (repeats count once; UUIDs in any case).
    public init(_ ids: some Sequence<String>) {
        self.init(
            marks: ids.map { id in
                let normalised = RowKey.normalised(text: id)
                return Mark(key: normalised, id: normalised)
            })
    }

    /// Marks from an array literal of ids.
    public init(arrayLiteral ids: String...) {
        self.init(ids)
    }

    /// Marks from rows' keys (already normalised).
    init(marks: [Mark]) {
        let storage = Storage()
        count = storage.append(marks, after: 0) ?? 0
        self.storage = count > 0 ? storage : nil
    }

    private init(storage: Storage, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// Whether no row is marked.
    public var isEmpty: Bool { count == 0 }

    /// Whether the row with id `id` is marked (a UUID's text in any case).
    public func contains(_ id: String) -> Bool {
        storage?.position(ofID: RowKey.normalised(text: id)).map { $0 < count } ?? false
    }

    /// Whether the row whose key is the UUID `id` is marked.
    public func contains(_ id: UUID) -> Bool {
        storage?.position(ofID: id.lowercasedText).map { $0 < count } ?? false
    }

    /// Whether the row with key `key` is marked.
    public func contains(_ key: RowKey) -> Bool {
        contains(key: OverlayKeys.indexKey(values: key.values))
    }

    /// Whether the row with index key `key` (see `OverlayKeys.indexKey(of:)`) is marked.
    func contains(key: String) -> Bool {
        storage?.position(ofKey: key).map { $0 < count } ?? false
    }

    /// The marked ids, in the order they were marked.
    public func makeIterator() -> IndexingIterator<[String]> {
        marks.map(\.id).makeIterator()
    }

    /// The marks, in the order they were marked.
    var marks: [Mark] { storage?.marks(upTo: count) ?? [] }

    /// The ids, sorted, in brackets.
    public var description: String { "[" + sorted().joined(separator: ", ") + "]" }

    /// These marks with `added` joined: in the shared storage when this is its newest value,
    /// else in new storage.
    func adding(_ added: [Mark]) -> PendingRowIDs {
        let joining = added.filter { !contains(key: $0.key) }
        guard !joining.isEmpty else { return self }
        if let storage, let newCount = storage.append(joining, after: count) {
            return PendingRowIDs(storage: storage, count: newCount)
        }
        return PendingRowIDs(marks: marks + joining)
    }

    public static func == (lhs: PendingRowIDs, rhs: PendingRowIDs) -> Bool {
        // One storage: the shorter value is a prefix of the longer (ids are never repeated).
        if lhs.storage === rhs.storage { return lhs.count == rhs.count }
        guard lhs.count == rhs.count else { return false }
        return lhs.marks.allSatisfy { rhs.contains(key: $0.key) }
    }

    public func hash(into hasher: inout Hasher) {
        // Independent of the order the ids were marked in, as equality is.
        var combined = 0
        for id in self { combined ^= id.hashValue }
        hasher.combine(count)
        hasher.combine(combined)
    }

    /// A marked row: its key as the overlay indexes it (the values joined by NUL), and its id.
    struct Mark: Sendable, Hashable {
        var key: String
        var id: String
    }

    /// Append-only marks: a value holds the first `count` of them, so later values extend the
    /// storage without changing what earlier ones hold.
    private final class Storage: Sendable {
        private struct Marks {
            var positions: [String: Int] = [:]
            /// Positions by id, only once an id differs from its key (a composite key).
            var idPositions: [String: Int]?
            var marks: [Mark] = []
        }

        private let state = Mutex(Marks())

        func position(ofKey key: String) -> Int? {
            state.withLock { $0.positions[key] }
        }

        func position(ofID id: String) -> Int? {
            state.withLock { state in state.idPositions.map { $0[id] } ?? state.positions[id] }
        }

        func marks(upTo count: Int) -> [Mark] {
            state.withLock { Array($0.marks[..<count]) }
        }

        /// Appends the marks not held yet when `end` is how many it holds; the new count, or `nil`
        /// (appending nothing) when a later value appended already.
        func append(_ added: [Mark], after end: Int) -> Int? {
            state.withLock { state in
                guard state.marks.count == end else { return nil }
                for mark in added where state.positions[mark.key] == nil {
                    if mark.id != mark.key, state.idPositions == nil {
                        state.idPositions = Dictionary(
                            state.marks.enumerated().map { ($1.id, $0) },
                            uniquingKeysWith: { first, _ in first })
                    }
                    state.positions[mark.key] = state.marks.count
                    if state.idPositions?[mark.id] == nil { state.idPositions?[mark.id] = state.marks.count }
                    state.marks.append(mark)
                }
                return state.marks.count
            }
        }
    }
}
