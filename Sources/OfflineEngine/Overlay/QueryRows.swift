import Synchronization

/// The rows of a query result: a random-access collection of ``Row`` that live reads can share
/// with the snapshots before and after it.
///
/// Rows a queued insert adds to a live read join the end of the list; the next snapshot's rows
/// are then the previous snapshot's rows with those appended, written once into storage both
/// share, so a publish costs the rows that joined, not the whole list again. Use it like an
/// array:
///
/// ```swift
/// for try await snapshot in client.from("tasks").select().snapshots() {
///     let rows = snapshot.result?.rows ?? []
///     let titles = rows.compactMap { $0["title"]?.stringValue }
///     print(rows.count, titles.first ?? "none")
/// }
/// ```
public struct QueryRows: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Where the rows are: an array of their own, or the first `endIndex` rows of storage that
    /// later values may extend.
    private enum Backing: Sendable {
        case array([Row])
        case shared(Storage)
    }

    private let backing: Backing
    /// How many rows this value holds.
    public let endIndex: Int

    /// The position of the first row (always 0).
    public var startIndex: Int { 0 }

    /// Rows from an array (the array is kept, not copied).
    public init(_ rows: [Row]) {
        backing = .array(rows)
        endIndex = rows.count
    }

    /// Rows from an array literal.
    public init(arrayLiteral rows: Row...) {
        self.init(rows)
    }

    /// Rows from an array, with room for `capacity` rows so that later appends share the
    /// storage.
    init(_ rows: [Row], reservingCapacity capacity: Int) {
        let storage = Storage(capacity: Swift.max(capacity, rows.count))
        storage.append(rows, after: 0)
        backing = .shared(storage)
        endIndex = rows.count
    }

    private init(storage: Storage, endIndex: Int) {
        backing = .shared(storage)
        self.endIndex = endIndex
    }

    /// The row at `position`.
    public subscript(position: Int) -> Row {
        precondition(position >= 0 && position < endIndex, "QueryRows: index out of range")
        switch backing {
        case .array(let rows): return rows[position]
        case .shared(let storage): return storage.row(at: position)
        }
    }

    /// The rows as an array: the array itself when the rows are one, else a copy.
    package var array: [Row] {
        if case .array(let rows) = backing { return rows }
        return Array(self)
    }

    /// The rows after `earlier`'s when these are `earlier`'s with rows appended in its storage
    /// (the next snapshot of a live read where rows only joined); `nil` otherwise.
    package func rows(after earlier: QueryRows) -> [Row]? {
        guard extends(earlier), case .shared(let storage) = backing else { return nil }
        return (earlier.endIndex..<endIndex).map(storage.row(at:))
    }

    /// Whether these are `earlier`'s rows with rows appended in its storage (none left or
    /// changed), known without comparing rows.
    package func extends(_ earlier: QueryRows) -> Bool {
        guard case .shared(let storage) = backing, case .shared(let before) = earlier.backing else {
            return false
        }
        return storage === before && endIndex >= earlier.endIndex
    }

    /// These rows with `rows` after them: in the shared storage when this is its newest value
    /// and there is room, else in new storage with room to grow.
    func appending(_ rows: [Row]) -> QueryRows {
        guard !rows.isEmpty else { return self }
        if case .shared(let storage) = backing, storage.append(rows, after: endIndex) {
            return QueryRows(storage: storage, endIndex: endIndex + rows.count)
        }
        let all = Array(self) + rows
        return QueryRows(all, reservingCapacity: all.count * 2)
    }

    public static func == (lhs: QueryRows, rhs: QueryRows) -> Bool {
        if case .shared(let left) = lhs.backing, case .shared(let right) = rhs.backing, left === right,
            lhs.endIndex == rhs.endIndex
        {
            return true
        }
        return lhs.endIndex == rhs.endIndex && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(endIndex)
        for row in self { hasher.combine(row) }
    }

    /// Append-only storage: rows below the committed count are written once and never change,
    /// so values that hold fewer rows read them without a lock while the newest value appends.
    private final class Storage: @unchecked Sendable {
        private let rows: UnsafeMutablePointer<Row>
        private let capacity: Int
        /// How many rows are written; only changed under the lock.
        private let committed = Mutex(0)

        init(capacity: Int) {
            self.capacity = capacity
            rows = UnsafeMutablePointer<Row>.allocate(capacity: Swift.max(capacity, 1))
        }

        deinit {
            rows.deinitialize(count: committed.withLock { $0 })
            rows.deallocate()
        }

        func row(at position: Int) -> Row { rows[position] }

        /// Writes `added` after the first `end` rows when `end` is the committed count and they
        /// fit; `false` (writing nothing) otherwise.
        @discardableResult
        func append(_ added: [Row], after end: Int) -> Bool {
            committed.withLock { count in
                guard count == end, end + added.count <= capacity else { return false }
                (rows + end).initialize(from: added, count: added.count)
                count += added.count
                return true
            }
        }
    }
}
