import Foundation

extension OfflineClient {
    /// The bytes the cached lists take in the store (each list's query key and rows as JSON),
    /// which ``CachePolicy/budget`` bounds; measured once the eviction that was due when it was
    /// called has run.
    ///
    /// ```swift
    /// let bytes = try await client.cacheSize()
    /// print(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file))
    /// ```
    public func cacheSize() async throws -> Int {
        try await openedEngine().cacheSize()
    }

    /// Removes the cached lists of `table`, so their rows are fetched again when next read;
    /// returns how many were removed. Lists the budget never evicts stay (see ``CachePolicy``):
    /// those a live read shows and those behind the user's queued or replayed writes.
    ///
    /// ```swift
    /// try await client.evict(table: "messages")   // e.g. after leaving a large channel
    /// ```
    @discardableResult
    public func evict(table: String, schema: String? = nil) async throws -> Int {
        try await openedEngine().evict(.table(schema: schema, table: table), compacting: false)
    }

    /// Removes every cached list the budget could evict, then gives the space back to the file
    /// system; returns how many lists were removed. Queued and rejected writes, the session, and
    /// lists that are pinned (see ``CachePolicy``) stay; ``clearLocalData()`` removes everything.
    @discardableResult
    public func purge() async throws -> Int {
        try await openedEngine().evict(.all, compacting: true)
    }
}
