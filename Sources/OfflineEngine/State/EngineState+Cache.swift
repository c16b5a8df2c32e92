import Foundation

extension EngineState {
    /// Forgets the lists an eviction pass removed from the store (see
    /// `Tables.forget(_:keeping:owner:)`); a list a read began to show meanwhile is saved again.
    func forgetEvicted(_ evicted: [EvictedList]) async throws {
        let reading = liveReads.keys.union(listsInUse.keys)
        // Only the lists of the cache now are held; other users' were evicted from the store alone.
        let held = evicted.filter { $0.user == ownership.partition }
        let saveAgain = tables.forget(held, keeping: reading, owner: overlayOwner)
        if !saveAgain.isEmpty { try await lists.save(saveAgain) }
    }

    /// The time to live of the list of `query` written by answer `serial` has passed on the
    /// client's clock: unless a later answer wrote it, it is stale and no longer the server's
    /// answer (snapshots read `isFromCache`), and its live read fetches again.
    func expire(_ query: QueryDescription, answer serial: Int) {
        let key = query.canonicalKey
        guard tables.expire(key, of: TableID(query), answer: serial, owner: overlayOwner) else { return }
        liveReads.markStale(keys: [key], reason: .write)
    }

    /// When a list of `query` fetched at `fetchedAt` expires, or `nil` without a time to live.
    func expiry(of query: QueryDescription, fetchedAt: Date) -> Date? {
        cache.policy.timeToLive(query).map { fetchedAt.addingTimeInterval($0.timeInterval) }
    }
}
