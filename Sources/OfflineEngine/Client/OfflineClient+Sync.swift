import Foundation

/// The app in control of sync: rejected writes it acts on, the queue it waits for, and reads it
/// refreshes.
extension OfflineClient {
    /// Puts a rejected write back at the end of its owner's queue, to be sent again from scratch
    /// (no attempts, its age counted from now); `values` replaces the rows it sent (an insert's or
    /// upsert's rows, an update's patch), for a retry with the values the server asked for.
    /// The write leaves ``rejectedMutations()`` and shows in the lists again.
    ///
    /// ```swift
    /// for try await rejected in client.rejectedMutations() {
    ///     for write in rejected where write.error.code == "23514" {   // a check constraint
    ///         let fixed = write.values.map { $0.merging(["title": "Untitled"]) }
    ///         try await client.retry(write.id, values: fixed)
    ///     }
    /// }
    /// ```
    ///
    /// Throws ``ClientError/notRejected`` when no rejected write has the id (it was retried or
    /// discarded already, or its stored copy could not be read and it cannot be sent).
    @discardableResult
    public func retry(_ id: UUID, values: [Row]? = nil) async throws -> PendingMutation {
        try await openedEngine().retryRejected(id, values: values)
    }

    /// `retry(_:values:)` with the values as the app's own type (encoded with
    /// ``Configuration/encoder``): one value or an array of them.
    @discardableResult
    public func retry<T: Encodable>(_ id: UUID, values: T) async throws -> PendingMutation {
        let rows: [Row]
        do {
            rows = try Row.rows(encoding: values, with: encoder)
        } catch {
            throw QueryError(.valuesAreNotRows)
        }
        return try await openedEngine().retryRejected(id, values: rows)
    }

    /// Removes a rejected write for good: the earlier name of ``dismissRejected(_:)``.
    @available(*, deprecated, renamed: "dismissRejected(_:)")
    public func discard(_ id: UUID) async throws {
        try await openedEngine().dismissRejected(id)
    }

    /// Returns once the current user's queue is empty: every write they made was accepted or
    /// rejected. Throws ``ClientError/closed`` when the client closes first.
    ///
    /// ```swift
    /// try await client.waitForPendingWrites()   // before signing out, say
    /// ```
    public func waitForPendingWrites() async throws {
        for try await count in pendingMutationCount() where count == 0 { return }
        throw ClientError.closed
    }

    /// Tries the queue at once, and every live read waiting on its retry schedule (Refreshing
    /// after a failure, or Stalled), without waiting for the schedule. A read paused while the
    /// network is known down stays paused. Before the store opened there is nothing to try: the
    /// queue is tried once it opens.
    public func syncNow() async {
        opening.current?.syncNow()
    }

    /// Marks every cached list of `table` stale: their live readers fetch again now, and other
    /// reads fetch before their rows count as the server's. For a change the app knows of that
    /// the engine cannot see (another device's write, a server-side job).
    public func invalidate(table: String, schema: String? = nil) async throws {
        try await openedEngine().invalidate(TableID(schema: schema, table: table))
    }
}

extension ReadQuery {
    /// Fetches this live read again now (pull to refresh): an Idle read starts Refreshing; one
    /// already refreshing goes on. Its snapshots show the answer.
    public func refresh() async throws {
        guard let client else { throw ClientError.closed }
        try await client.openedEngine().liveReads.markStale(keys: [query.canonicalKey])
    }
}
