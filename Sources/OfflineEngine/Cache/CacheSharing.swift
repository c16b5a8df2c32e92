/// Whose cache a user sees when several users sign in on one device: each their own, or one cache
/// handed from user to user. Set it with ``Configuration/sharing``.
///
/// ```swift
/// var configuration = Configuration(url: url, apiKey: anonKey)
/// configuration.sharing = .perUser    // the default: a family iPad, a shop's till
/// configuration.sharing = .handOver   // one cache passed on, stale, to whoever signs in
/// ```
///
/// Under both, a user's queued, replayed and rejected writes are theirs alone: never laid over
/// another user's lists, never listed for them, and replayed only under their own session.
public enum CacheSharing: Sendable, Hashable {
    /// Each user has a cache of their own, kept across sign-outs: a user signing in sees the
    /// lists last fetched with their own token (none, the first time), never another user's
    /// rows, and finds their queued writes as they left them. Signed out, the device shows the
    /// signed-out cache: what was fetched while nobody was signed in. Every user's lists share
    /// the budget (``CachePolicy``); `OfflineClient.clearLocalData(user:)` wipes one user's data.
    case perUser
    /// One cache, passed to whoever signs in next (the reference's hand-over): every list is
    /// marked stale and fetched again with the new user's token, and until then shows the
    /// previous user's rows (`isFromCache`). Signing out keeps the cache for the next user.
    case handOver
}
