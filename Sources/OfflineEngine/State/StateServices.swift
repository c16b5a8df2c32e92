/// The parts ``EngineState``'s events call on, handed to it by the engine (which holds them for
/// everyone else): the live reads it marks stale, the network's state, the writes being sent at
/// once, and the cache's budget and clock.
struct StateServices: Sendable {
    let liveReads: any LiveReadMarking
    let connectivity: ConnectivityMonitor
    let immediateSends: ImmediateSends
    let cache: CacheKeeper
}

/// The running live reads as the state sees them: which queries they read, and marking their
/// refreshes stale. The live reads (`LiveReads`) derive from the state's facts; this is how the
/// state reaches them back without depending on them.
protocol LiveReadMarking: Sendable {
    /// The queries of the running live reads of `table` (every table for `nil`).
    func queries(of table: TableID?) -> [QueryDescription]
    /// Marks the refreshes of the live reads of `table` (every table for `nil`) stale.
    func markStale(table: TableID?)
    /// Marks the refreshes of the live reads with these canonical keys stale.
    func markStale(keys: Set<String>)
}

extension LiveReadMarking {
    /// The queries of every running live read.
    func queries() -> [QueryDescription] { queries(of: nil) }
}
