import Streams

/// One live query shared by all its readers: its latest snapshot, its refresh, and how many
/// readers hold it. The refresh runs (a child of the engine's background work) while at least
/// one reader does.
struct LiveRead: Sendable {
    /// The query's canonical key.
    let key: String
    /// The query.
    let query: QueryDescription
    /// The latest snapshot, replayed to each new reader.
    let snapshots: StateBroadcast<QuerySnapshot, Never>
    /// The refresh loop behind this read.
    let refresher: Refresher
    /// How many readers hold this read.
    var readers: Int
    /// How the refresh stands.
    var refresh: RefreshState
    /// Whether the server has answered since the read started (so the rows are not only the
    /// device's).
    var answered: Bool
    /// The read's own refresh wrote an answer that its next report publishes, with the state
    /// the refresh ends in; until then the read is not published.
    var awaitsReport = false
}
