import Foundation

/// How much the cache may keep, for how long, and how its files are protected:
/// ``Configuration/cache``.
///
/// The budget bounds the bytes of cached lists (each list's query key and its rows as the server
/// sent them, in JSON). When a write of the cache takes it over, the client removes lists
/// off the caller's task until they fit 90% of the budget (the slack spares a pass per answer):
/// first those past their time to live, then the least recently read. At launch it does the
/// same and gives the freed space back to the file system, so a budget lowered in an update
/// shrinks an existing store the next time the app starts.
///
/// Some lists are never removed, whatever the budget: those a live read shows, and those of a
/// table with a queued write or a write that was sent but is still laid over the lists (the
/// replay log), since the user's own writes are shown over them. Writes are never evicted.
///
/// ```swift
/// configuration.cache.budget = 20_000_000          // 20 MB of cached lists
/// configuration.cache.timeToLive = { query in
///     query.table == "exchange_rates" ? .seconds(15 * 60) : nil
/// }
/// ```
public struct CachePolicy: Sendable {
    /// The bytes cached lists may take; 100 MB (100,000,000 bytes) by default.
    public var budget: Int
    /// How long a query's list counts as the server's answer once fetched; `nil` (the default
    /// for every query): until it is fetched again.
    ///
    /// Past it the list is expired. A live read showing it marks it stale and fetches again, its
    /// snapshots reading ``QuerySnapshot/isFromCache`` until the server answers; a read that
    /// starts over it fetches before anything reads as fresh; and the next eviction (at launch, or
    /// when the cache is over its budget) removes it first, unless it is pinned (see above).
    public var timeToLive: @Sendable (QueryDescription) -> Duration?

    #if canImport(Darwin)
        /// The data protection class of the store's folder and files, so the cache is encrypted
        /// at rest with the device: until the first unlock after a restart by default, which
        /// lets the app sync in the background while the device is locked. `.complete` keeps the
        /// files unreadable while locked (the client then cannot open its store in the background).
        public var fileProtection: FileProtectionType = .completeUntilFirstUserAuthentication
    #endif

    /// A policy with the default budget and no time to live.
    public init(
        budget: Int = 100_000_000,
        timeToLive: @escaping @Sendable (QueryDescription) -> Duration? = { _ in nil }
    ) {
        self.budget = budget
        self.timeToLive = timeToLive
    }

    /// The bytes an eviction pass brings the lists down to: 90% of the budget.
    var evictionTarget: Int { budget - budget / 10 }
}
