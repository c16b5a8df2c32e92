import Foundation

extension OfflineClient {
    /// Sends as much of the current user's queue as it can before `limit` has passed on the
    /// client's clock, and returns what left the queue and how much remains: for an app about
    /// to be suspended (its background time is short), or a background task.
    ///
    /// It tries the queue at once (as ``syncNow()`` does) and returns when the user's queue is
    /// empty or at the deadline, whichever comes first. Nothing is left half-done: a write or
    /// batch still waiting for its answer at the deadline stays queued, marked as sent, and is
    /// settled the next time the queue is tried, as a write whose answer was lost is (its keys
    /// are read back first), even after the app was killed meanwhile.
    ///
    /// ```swift
    /// // When the app resigns active (on Apple platforms, see also `flushInBackground(within:)`):
    /// let result = try await client.flush(within: .seconds(20))
    /// print("\(result.accepted.count) synced, \(result.remaining) left for later")
    /// ```
    ///
    /// Throws ``ClientError/closed`` when the client closes first.
    public func flush(within limit: Duration) async throws -> FlushResult {
        try await openedEngine().flush(within: limit, clock: configuration.clock)
    }
}

extension Engine {
    /// See ``OfflineClient/flush(within:)``.
    func flush(within limit: Duration, clock: any Clock<Duration>) async throws -> FlushResult {
        guard !calls.isClosed else { throw ClientError.closed }
        let before = await state.visibleQueuedIDs()
        syncNow()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await facts in self.outputs.queue.values() where facts.visibleCount == 0 { return }
            }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        let after = await state.visibleQueuedIDs()
        let waiting = Set(after)
        let left = before.filter { !waiting.contains($0) }
        let refused = Set(outputs.rejected.facts.value.all.map(\.id))
        return FlushResult(
            accepted: left.filter { !refused.contains($0) }, rejected: left.filter { refused.contains($0) },
            remaining: after.count)
    }
}
