import Foundation
import Streams

/// The entry point: offline-first reads and writes against one Supabase/PostgREST project.
///
/// Open one per app (or per account store) and keep it for the app's life; everything it hands
/// out is `Sendable` and is consumed as `for try await` streams. ``close()`` ends it.
public final class OfflineClient: Sendable {
    let engine: Engine

    /// Opens the store, reads back the stored session, and starts replaying queued writes.
    ///
    /// Throws ``StoreError`` when the store cannot be opened (corrupt, unreadable, written by a
    /// newer version); ``Storage/reset()`` deletes it if the app chooses to start over.
    public init(configuration: Configuration) async throws {
        let store = try await Store.openInBackground(configuration.storage)
        #if canImport(Darwin)
            do {
                try StoreFiles.protect(configuration.storage, as: configuration.cache.fileProtection)
            } catch {
                await store.close()
                throw error
            }
        #endif
        engine = Engine(configuration: configuration, store: store)
        do {
            try await engine.start()
        } catch {
            await engine.close()
            throw error
        }
    }

    /// The table `name` in the default schema: the start of every read and write.
    public func from(_ name: String) -> TableQuery {
        TableQuery(client: self, schema: nil, table: name)
    }

    /// The table `name` in `schema` (sent as `Accept-Profile` / `Content-Profile`).
    public func from(_ name: String, schema: String) -> TableQuery {
        TableQuery(client: self, schema: schema, table: name)
    }

    // MARK: Pending and rejected writes

    /// The current user's queued writes to `table` (and owner-less ones), oldest first: a new
    /// value on every enqueue, replay and rejection.
    public func pendingMutations(table: String, schema: String? = nil) -> AsyncThrowingStream<
        [PendingMutation], Error
    > {
        let engine = engine
        let id = TableID(schema: schema, table: table)
        return stream { try await engine.pendingMutations(of: id) }
    }

    /// How many writes of the current user wait in the queue.
    public func pendingMutationCount() -> AsyncThrowingStream<Int, Error> {
        let engine = engine
        return stream { engine.pendingMutationCount }
    }

    /// Writes the server refused for good, kept until dismissed.
    public func rejectedMutations() -> AsyncThrowingStream<[RejectedMutation], Error> {
        let engine = engine
        return stream { engine.rejectedMutations }
    }

    /// Forgets a rejected write once the app has shown it.
    public func dismissRejected(_ id: UUID) async throws {
        try await engine.dismissRejected(id)
    }

    // MARK: Network and session

    /// The network as the client sees it: `.online`, `.offline` or `.unknown` (treated as up).
    public var connectivity: AsyncThrowingStream<Connectivity, Error> {
        let engine = engine
        return stream { engine.connectivity.states() }
    }

    /// What the client does, as it happens (see ``SyncEvent``), for logs and metrics: never
    /// values, URLs or tokens. Every event after the stream is asked for is kept until read;
    /// the stream finishes when the client closes.
    public var events: AsyncThrowingStream<SyncEvent, Error> {
        guard !engine.calls.isClosed else {
            return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
        }
        // Subscribed now: no event after this call is missed.
        return engine.state.events.stream()
    }

    /// The client's sync at a glance (see ``SyncStatus``): the network, whether the queue is
    /// being sent, how many writes wait and since when, the last upload error, when a write was
    /// last accepted, and whether writes wait for a session.
    public var syncStatus: AsyncThrowingStream<SyncStatus, Error> {
        let engine = engine
        return stream { engine.syncStatus }
    }

    /// The session: `.restoring` while the stored one is read back, then `.signedOut` or
    /// `.signedIn`.
    public var session: AsyncThrowingStream<SessionState, Error> {
        let engine = engine
        return stream { engine.state.session.values() }
    }

    /// Lets requests go out again after ``disableNetwork()``; waiting refreshes and the queue try
    /// at once.
    public func enableNetwork() async {
        // The monitor reports the network coming back, which wakes the replay once; waking it
        // here as well would cut short the wait after a failure of the pass that wake began.
        engine.connectivity.enableNetwork()
    }

    /// Treats the network as down until ``enableNetwork()``: reads show the device's rows
    /// (Paused) and writes queue.
    public func disableNetwork() async {
        engine.connectivity.disableNetwork()
    }

    /// Hands the client a signed-in user's session (from your auth client).
    public func signIn(_ session: AuthSession) async throws {
        try await engine.signIn(session)
    }

    /// Forgets the session; requests carry the API key only.
    public func signOut() async throws {
        try await engine.signOut()
    }

    /// Follows an auth client's session changes, such as supabase-swift's `authStateChanges`
    /// mapped to `AuthSession?`, until the sequence ends or the client closes.
    public func follow<Sessions: AsyncSequence & Sendable>(sessions: Sessions) async throws
    where Sessions.Element == AuthSession?, Sessions.Failure == Never {
        for await next in sessions {
            if let next { try await signIn(next) } else { try await signOut() }
        }
    }

    /// Wipes cached lists, the queue, the replay log, rejected writes and the stored session.
    /// Answers to requests that left before are refused.
    public func clearLocalData() async throws {
        try await engine.clearLocalData()
    }

    /// Ends the client: calls under way end as they would offline, streams being read finish,
    /// and later calls and streams fail with ``ClientError/closed``.
    public func close() async {
        await engine.close()
    }

    // MARK: Streams

    /// Bridges one of the engine's broadcasts to a stream that fails with ``ClientError/closed``
    /// when asked for after `close()`, and finishes when the client closes.
    private func stream<Source: AsyncSequence & Sendable>(
        _ source: @escaping @Sendable () async throws -> Source
    ) -> AsyncThrowingStream<Source.Element, Error> where Source.Element: Sendable {
        guard !engine.calls.isClosed else {
            return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Source.Element.self, bufferingPolicy: .bufferingNewest(1))
        engine.background.forward(until: continuation) {
            do {
                for try await value in try await source() {
                    continuation.yield(value)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// A live read's stream; see ``ReadQuery/snapshots()``. The read starts at once, in the
    /// background work, and its reader leaves when the stream's consumer stops.
    func snapshots(of query: QueryDescription) -> AsyncThrowingStream<QuerySnapshot, Error> {
        guard !engine.calls.isClosed else {
            return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
        }
        let reader = LiveSnapshotReader(engine: engine, query: query)
        return AsyncThrowingStream { try await reader.next() }
    }
}

extension ReadQuery {
    /// A live read: the cached rows at once (from the device, with the user's pending writes laid
    /// over them), a fetch from the server, then a new snapshot whenever the rows, the pending
    /// writes or the refresh state change. Readers of the same query share one list and one
    /// refresh; cancelling the reading task stops this reader.
    public func snapshots() -> AsyncThrowingStream<QuerySnapshot, Error> {
        guard let client else {
            return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
        }
        return client.snapshots(of: query)
    }

    /// Reads once: from the server when it can, else the cached rows; both with the overlay.
    /// Throws only when the server cannot be reached and nothing is cached.
    ///
    /// The result carries the flags of a snapshot: ``FetchResult/isFromCache``,
    /// ``FetchResult/fetchedAt`` and ``FetchResult/hasPendingMutations``:
    ///
    /// ```swift
    /// let once = try await client.from("tasks").select().fetch()
    /// let tasks = try once.decode([Task].self)
    /// let syncing = once.hasPendingMutations   // a queued write changed these rows
    /// ```
    public func fetch() async throws -> FetchResult {
        guard let client else { throw ClientError.closed }
        return try await client.engine.fetchOnce(query)
    }
}

extension OfflineClient {
    /// The encoder of the values handed to writes and calls (``Configuration/encoder``).
    var encoder: JSONEncoder { engine.configuration.encoder }
    /// The decoder of the values read back (``Configuration/decoder``).
    var decoder: JSONDecoder { engine.configuration.decoder }
}
