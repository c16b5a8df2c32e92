/// How many queued writes the replay sends in one request (``Configuration/replayBatching``).
///
/// Consecutive inserts of one owner into one table (and upserts with the same conflict target
/// and duplicate handling) go out as one PostgREST bulk request, up to ``maxRows`` rows and
/// ``maxBytes`` bytes of JSON; each write keeps its own outcome. A single write larger than the
/// byte cap goes alone. Consecutive deletes of one row each by its key (`eq` on the table's one
/// key column), and updates of that kind making the same change, go as one request naming their
/// keys (`id=in.(…)`, at most 100). Other updates and deletes, writes that ask for their rows
/// back or must reach a row, and inserts without their key values go one by one.
///
/// ```swift
/// configuration.replayBatching = ReplayBatching(maxRows: 100, maxBytes: 256 * 1_024)
/// configuration.replayBatching = .off  // one request per write
/// ```
public struct ReplayBatching: Sendable, Hashable {
    /// The most rows one request carries; `1` sends each write alone.
    public var maxRows: Int
    /// The most bytes of rows (as JSON) one request carries.
    public var maxBytes: Int

    /// Limits for one batch: 250 rows and 1 MiB by default.
    public init(maxRows: Int = 250, maxBytes: Int = 1_048_576) {
        self.maxRows = maxRows
        self.maxBytes = maxBytes
    }

    /// One request per write, as before batching.
    public static let off = ReplayBatching(maxRows: 1, maxBytes: 0)
}
