/// One cached list as the overlay sees it: the read that produced it, its rows in the server's
/// order, and the replay-log tick current when its request was sent.
struct CachedList: Sendable, Hashable {
    /// The read this list answers.
    var query: QueryDescription
    /// The rows the server returned, in its order.
    var rows: [Row]
    /// The replay log's tick when the request that fetched these rows was sent: replayed writes
    /// with a greater tick may not be in `rows` and are laid over them.
    var fetchTick: Int

    /// A cached list from its parts.
    init(query: QueryDescription, rows: [Row], fetchTick: Int = 0) {
        self.query = query
        self.rows = rows
        self.fetchTick = fetchTick
    }
}

extension QueryDescription {
    /// Whether this read is of the same table as a write to `schema`.`table` (no schema is
    /// `public`).
    func reads(schema otherSchema: String?, table otherTable: String) -> Bool {
        table == otherTable && (schema ?? "public") == (otherSchema ?? "public")
    }
}
