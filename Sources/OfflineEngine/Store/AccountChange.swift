/// What a sign-in, a sign-out or a restore changes in the store, written in one commit
/// (``AccountTable/record(_:)``).
package struct AccountChange: Sendable {
    /// The cache passing to a new owner.
    package struct Owner: Sendable {
        /// The new owner (`nil`: nobody signed in).
        var user: String?
        /// The partitions whose lists move, under ``CacheSharing/handOver``: the old owner's
        /// lists, marked stale, replace the new owner's.
        var handOver: (from: String, to: String)?
    }

    /// The new owner, when the cache changes hands.
    var owner: Owner?
    /// The session to store, when it changes (`.some(nil)`: forget the stored one).
    var session: AuthSession??
    /// The user whose owner-less queued writes become theirs.
    var claimingFor: String?
}
