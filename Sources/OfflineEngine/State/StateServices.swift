/// The parts ``EngineState``'s events call on, handed to it by the engine (which holds them for
/// everyone else): the live reads it marks stale, the network's state, the writes being sent at
/// once, and the cache's budget and clock.
struct StateServices: Sendable {
    let liveReads: LiveReads
    let connectivity: ConnectivityMonitor
    let immediateSends: ImmediateSends
    let cache: CacheKeeper
}
