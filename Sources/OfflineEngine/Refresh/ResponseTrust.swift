/// Which server answers may be written to the cache, so a signed-out request cannot wipe a list
/// that row-level security merely hid from it.
public enum ResponseTrust: Sendable, Hashable {
    /// Every answer is written.
    case any
    /// An empty answer is written only for a signed-in user; signed out, the live read stays
    /// ``RefreshState/refreshing`` and is retried at most a minute apart until the table has rows
    /// or a user signs in.
    case authenticatedSessionOnly
}
