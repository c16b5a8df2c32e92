/// How many queued writes the replay sends in one request (``Configuration/replayBatching``).
///
/// Consecutive inserts of one owner into one table (and upserts with the same conflict target
/// and duplicate handling) go out as one PostgREST bulk request, up to ``maxRows`` rows and
/// ``maxBytes`` bytes of JSON; each write keeps its own outcome. A single write larger than the
/// byte cap goes alone. Consecutive deletes of one row each by its key (`eq` on the table's one
/// key column), and updates of that kind making the same change, go as one request naming their
/// keys (`id=in.(…)`, at most 100). Other updates and deletes, writes that ask for their rows
/// back or must reach a row, and inserts without their key values go one by one. A batch that
/// fails for a transient reason a second time in a row goes in halves, so that a write at fault
/// holds back only itself and what follows it.
///
/// By default one request is in flight at a time, so the server applies the writes in the
/// queue's order. ``tablesInFlight`` above 1 lets the requests of different tables overlap
/// (see its documentation for what that changes).
///
/// ```swift
/// configuration.replayBatching = ReplayBatching(maxRows: 100, maxBytes: 256 * 1_024)
/// configuration.replayBatching = ReplayBatching(tablesInFlight: 4)  // tables overlap
/// configuration.replayBatching = .off  // one request per write
/// ```
public struct ReplayBatching: Sendable, Hashable {
    /// The most rows one request carries; `1` sends each write alone.
    public var maxRows: Int
    /// The most bytes of rows (as JSON) one request carries.
    public var maxBytes: Int
    /// How many tables' requests may be in flight at once; `1` (the default) sends one request
    /// at a time, in the queue's order.
    ///
    /// Above 1, the writes of each table still go one request after another in queue order (so
    /// every row's writes keep theirs), but a table's request no longer waits for an earlier
    /// one of another table to be answered. A request refused while an earlier write of another
    /// table was still unanswered is not rejected: a row whose foreign key names a row queued
    /// before it, or a policy that reads another table, may have been refused for that alone.
    /// It stays queued and goes again once everything before it is settled, and only a refusal
    /// then rejects it. What still changes is the order in which the server applies writes of
    /// different tables: triggers, realtime subscribers and other clients may see a table's
    /// rows before an earlier write of another table.
    public var tablesInFlight: Int

    /// Limits for one batch: 250 rows and 1 MiB by default, one request in flight.
    public init(maxRows: Int = 250, maxBytes: Int = 1_048_576, tablesInFlight: Int = 1) {
        self.maxRows = maxRows
        self.maxBytes = maxBytes
        self.tablesInFlight = tablesInFlight
    }

    /// One request per write, as before batching.
    public static let off = ReplayBatching(maxRows: 1, maxBytes: 0)
}
