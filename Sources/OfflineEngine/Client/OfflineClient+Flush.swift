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
    /// are read back first), even after the app was killed meanwhile. It returns at once when
    /// the user signs out or the local data is cleared meanwhile; a write wiped by a clear is
    /// neither accepted nor rejected.
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
    /// See ``OfflineClient/flush(within:)``. The user is the one whose queue is shown when it
    /// starts: it ends early when another queue is shown (a sign-out, a clear), and counts as
    /// accepted only writes of theirs the server accepted (a write wiped by a clear was not).
    func flush(within limit: Duration, clock: any Clock<Duration>) async throws -> FlushResult {
        guard !calls.isClosed else { throw ClientError.closed }
        let (owner, before) = await state.visibleQueue()
        syncNow()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await facts in self.outputs.queue.values()
                where facts.owner != owner || facts.visibleCount == 0 {
                    return
                }
            }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        let after = await state.queuedIDs(visibleTo: owner)
        let waiting = Set(after)
        let refused = Set(outputs.rejected.facts.value.all.map(\.id))
        var accepted: [UUID] = []
        var rejected: [UUID] = []
        for id in before where !waiting.contains(id) {
            if refused.contains(id) {
                rejected.append(id)
            } else if try await store.accepted.accepted(id) != nil {
                accepted.append(id)
            }
        }
        return FlushResult(accepted: accepted, rejected: rejected, remaining: after.count)
    }
}
