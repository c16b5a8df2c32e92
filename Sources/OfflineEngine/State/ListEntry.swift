import Foundation

/// One cached list as the engine holds it: the rows with their fetch tick, when they were
/// fetched, whether they must be fetched again, and which answer wrote them.
struct ListEntry: Sendable, Hashable {
    /// The rows and the tick of the request that fetched them.
    var list: CachedList
    /// When the server's answer was written (`nil`: never fetched, only patched).
    var fetchedAt: Date?
    /// Whether the list must be fetched again before it is up to date.
    var isStale: Bool
    /// The answer that wrote the rows, while they are the current owner's (`nil`: read from the
    /// store, patched only, or passed to a new owner).
    var answer: AnswerStamp?
    /// When the list's time to live ends, or `nil` when it has none.
    var expiresAt: Date? = nil
    /// The rows the read's count holds beyond the list's rows when it was counted, or `nil`
    /// when the read did not ask for a count (see ``StoredList/countBeyond``).
    var countBeyond: Int? = nil

    /// The entry as the store keeps it, under `key` (a list never fetched, only patched, has the
    /// earliest fetch time).
    func stored(key: String) -> StoredList {
        StoredList(
            key: key, schema: list.query.schema, table: list.query.table, rows: list.rows,
            fetchedAt: fetchedAt ?? Date(timeIntervalSince1970: 0), mark: Int64(list.fetchTick),
            isStale: isStale, expiresAt: expiresAt, countBeyond: countBeyond)
    }
}

/// Which answer wrote a cached list: its serial (every answer written gets a larger one), and
/// the live read whose own refresh asked for it, if one did. That read shows the rows with the
/// state its refresh then reports, in one snapshot.
struct AnswerStamp: Sendable, Hashable {
    /// The answer's serial.
    var serial: Int
    /// The refresh that asked (``SnapshotComposer/refreshID``: its query key and the run of its
    /// live read), or `nil` (a one-shot fetch).
    var refreshOf: String?
}
