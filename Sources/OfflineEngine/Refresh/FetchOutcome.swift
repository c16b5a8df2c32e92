/// What became of one refresh attempt that the server answered; the fetch closure decides it from
/// the store's change marks and the response trust, and the refresh loop acts on it.
enum FetchOutcome: Sendable, Hashable {
    /// The answer was written to the cache: the refresh is done.
    case applied
    /// The answer was not written because it is older than the cache.
    ///
    /// `askAgain: true` when the request left before the table's last change or before the cache
    /// passed to a new owner: the refresh asks again at once. `askAgain: false` when it left
    /// before `clearLocalData()` (it may carry the cleared session's token): this request is not
    /// repeated; the clear's own stale mark starts the next refresh.
    case refused(askAgain: Bool)
    /// The answer was empty and, under ``ResponseTrust/authenticatedSessionOnly`` with no signed-in
    /// user, not trusted: nothing was written and the refresh keeps asking, at most a minute
    /// apart, until rows arrive or a user signs in.
    case emptyButUntrusted
}
