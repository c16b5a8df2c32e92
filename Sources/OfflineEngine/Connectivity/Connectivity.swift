/// Whether the device can reach the network, as far as the engine knows; only a network known to
/// be down pauses refreshes and queues writes.
public enum Connectivity: Sendable, Hashable {
    /// The network is up.
    case online
    /// The network is known to be down (or the app called `disableNetwork()`).
    case offline
    /// Nothing tells: no availability source and no system monitor. Treated as up.
    case unknown
}
