import Foundation
import Streams

/// The entry point: offline-first reads and writes against one Supabase/PostgREST project.
///
/// Make one per app (or per account store) and keep it for the app's life, as supabase-swift's
/// `SupabaseClient`: a global, or a property set in a synchronous `init`. Everything it hands out
/// is `Sendable` and is consumed as `for try await` streams. ``close()`` ends it.
///
/// ```swift
/// let supabase = OfflineClient(configuration: Configuration(
///     url: URL(string: "https://abc.supabase.co")!, apiKey: anonKey, storage: .directory(appSupportURL)))
/// ```
public final class OfflineClient: Sendable {
    /// What the client was made with.
    let configuration: Configuration
    /// The store's open, and the engine once it opened.
    let opening: ClientOpening
    /// The network as the client sees it, from before the store opens (``disableNetwork()``).
    let network: ConnectivityMonitor
    /// What the client does (``events``), subscribed to from before the store opens.
    let eventBroadcast: EventBroadcast<SyncEvent, Never>

    /// Makes a client at once, without blocking and without throwing: the store opens in the
    /// background, and calls wait for it.
    ///
    /// The store starts opening at the first call or stream that needs it, or at ``open()``;
    /// queued writes of an earlier run start replaying once it is open. When it cannot open
    /// (corrupt, unreadable, written by a newer version), every call and stream throws the same
    /// ``StoreError``; ``open()`` is the call to ask, and ``Storage/reset()`` deletes the store if
    /// the app chooses to start over:
    ///
    /// ```swift
    /// let supabase = OfflineClient(configuration: configuration)   // a global, as with supabase-swift
    ///
    /// do {
    ///     try await supabase.open()   // optional: the first call opens the store as well
    /// } catch let error as StoreError {
    ///     showStoreProblem(error)
    /// }
    /// ```
    ///
    /// In an `async` function, `OfflineClient(configuration:)` names the opening initialiser
    /// (Swift prefers it there): write `try await`, or make the client in a synchronous context.
    public convenience init(configuration: Configuration) {
        self.init(making: configuration)
    }

    /// Makes a client and opens its store before returning: reads back the stored session and
    /// starts replaying queued writes.
    ///
    /// Throws ``StoreError`` when the store cannot be opened (corrupt, unreadable, written by a
    /// newer version); ``Storage/reset()`` deletes it if the app chooses to start over.
    ///
    /// ```swift
    /// let client = try await OfflineClient(configuration: configuration)
    /// ```
    public convenience init(configuration: Configuration) async throws {
        self.init(making: configuration)
        do {
            try await open()
        } catch {
            await close()
            throw error
        }
    }

    private init(making configuration: Configuration) {
        self.configuration = configuration
        let network = ConnectivityMonitor()
        let events = EventBroadcast<SyncEvent, Never>()
        self.network = network
        eventBroadcast = events
        opening = ClientOpening { background in
            try await Self.open(configuration, in: background, network: network, events: events)
        }
    }

    /// Opens the store now if nothing has opened it yet, and returns once it is open and queued
    /// writes are replaying.
    ///
    /// Every call waits for the store on its own; this is the call to ask whether it opened,
    /// and to start the replay at launch before any read or write.
    ///
    /// ```swift
    /// try await client.open()
    /// ```
    ///
    /// Throws ``StoreError`` when the store cannot be opened (the same error every call throws),
    /// and ``ClientError/closed`` after ``close()``.
    public func open() async throws {
        let engine = try await opening.engine()
        guard !engine.calls.isClosed else { throw ClientError.closed }
    }

    /// The engine, once the store is open: every call's first step (see ``ClientOpening``).
    func openedEngine() async throws -> Engine {
        try await opening.engine()
    }

    /// Opens the store and starts an engine on it, in `background` (the engine's background work).
    private static func open(
        _ configuration: Configuration, in background: BackgroundWork, network: ConnectivityMonitor,
        events: EventBroadcast<SyncEvent, Never>
    ) async throws -> Engine {
        let store = try await Store.openInBackground(configuration.storage)
        #if canImport(Darwin)
            do {
                try StoreFiles.protect(configuration.storage, as: configuration.cache.fileProtection)
            } catch {
                await store.close()
                throw error
            }
        #endif
        let engine = Engine(
            configuration: configuration, store: store, background: background, connectivity: network,
            events: events)
        do {
            try await engine.start()
        } catch {
            await engine.abandon()
            throw error
        }
        return engine
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
        let id = TableID(schema: schema, table: table)
        return stream { engine in try await engine.pendingMutations(of: id) }
    }

    /// How many writes of the current user wait in the queue.
    public func pendingMutationCount() -> AsyncThrowingStream<Int, Error> {
        stream { engine in engine.pendingMutationCount }
    }

    /// Writes the server refused for good, kept until dismissed.
    public func rejectedMutations() -> AsyncThrowingStream<[RejectedMutation], Error> {
        stream { engine in engine.rejectedMutations }
    }

    /// Removes a rejected write for good, once the app has shown or handled it: it leaves
    /// ``rejectedMutations()`` and the store. Nothing leaves the rejected writes without the app
    /// saying so; `retry(_:values:)` puts one back in the queue instead.
    ///
    /// ```swift
    /// Button("Discard", role: .destructive) { Task { try? await client.dismissRejected(write.id) } }
    /// ```
    public func dismissRejected(_ id: UUID) async throws {
        try await openedEngine().dismissRejected(id)
    }

    // MARK: Network and session

    /// The network as the client sees it: `.online`, `.offline` or `.unknown` (treated as up).
    public var connectivity: AsyncThrowingStream<Connectivity, Error> {
        stream { [network] _ in network.states() }
    }

    /// What the client does, as it happens (see ``SyncEvent``), for logs and metrics: never
    /// values, URLs or tokens. Every event after the stream is asked for is kept until read;
    /// the stream finishes when the client closes.
    public var events: AsyncThrowingStream<SyncEvent, Error> {
        // Subscribed now: no event after this call is missed.
        let subscribed = eventBroadcast.stream()
        if let engine = opening.current {
            guard !engine.calls.isClosed else {
                return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
            }
            return subscribed
        }
        // Handed on once the store opened, or ended with the error that kept it from opening.
        return stream(bufferingPolicy: .unbounded) { _ in subscribed }
    }

    /// The client's sync at a glance (see ``SyncStatus``): the network, whether the queue is
    /// being sent, how many writes wait and since when, the last upload error, when a write was
    /// last accepted, and whether writes wait for a session.
    public var syncStatus: AsyncThrowingStream<SyncStatus, Error> {
        stream { engine in engine.syncStatus }
    }

    /// The session: `.restoring` while the stored one is read back, then `.signedOut` or
    /// `.signedIn`.
    public var session: AsyncThrowingStream<SessionState, Error> {
        stream { engine in engine.outputs.session.values() }
    }

    /// Lets requests go out again after ``disableNetwork()``; waiting refreshes and the queue try
    /// at once.
    public func enableNetwork() async {
        // The monitor reports the network coming back, which wakes the replay once; waking it
        // here as well would cut short the wait after a failure of the pass that wake began.
        network.enableNetwork()
    }

    /// Treats the network as down until ``enableNetwork()``: reads show the device's rows
    /// (Paused) and writes queue.
    public func disableNetwork() async {
        network.disableNetwork()
    }

    /// Hands the client a signed-in user's session (from your auth client).
    public func signIn(_ session: AuthSession) async throws {
        try await openedEngine().signIn(session)
    }

    /// Forgets the session; requests carry the API key only.
    public func signOut() async throws {
        try await openedEngine().signOut()
    }

    /// Follows an auth client's session changes, such as supabase-swift's `authStateChanges`
    /// mapped to `AuthSession?`, until the sequence ends or the client closes.
    public func follow<Sessions: AsyncSequence & Sendable>(sessions: Sessions) async throws
    where Sessions.Element == AuthSession?, Sessions.Failure == Never {
        for await next in sessions {
            if let next { try await signIn(next) } else { try await signOut() }
        }
    }

    /// Wipes cached lists, the queue, the replay log, rejected writes and the stored session:
    /// every user's data. Answers to requests that left before are refused.
    public func clearLocalData() async throws {
        try await openedEngine().clearLocalData()
    }

    /// Wipes one user's data: the lists of their cache, their queued, replayed and rejected
    /// writes, and their stored session; other users' caches and writes stay. A user signed in
    /// now is signed out first, and answers to their requests that left before are refused.
    /// Afterwards none of the user's values is readable in the store's files.
    ///
    /// ```swift
    /// // A shared tablet: Ana leaves for good, Ben's cache stays.
    /// try await client.clearLocalData(user: "ana-user-id")
    /// ```
    public func clearLocalData(user: String) async throws {
        try await openedEngine().clearLocalData(user: user)
    }

    /// Ends the client: calls under way end as they would offline, streams being read finish,
    /// and later calls and streams fail with ``ClientError/closed``. A store still opening is
    /// closed once it opened; a client whose store never opened only stops taking calls.
    public func close() async {
        await opening.close { engine in await engine.close() }
        // Ended by the engine's close when it opened; here for a client that never had one.
        eventBroadcast.finish()
        network.close()
    }

    // MARK: Streams

    /// Bridges one of the engine's broadcasts to a stream that fails with ``ClientError/closed``
    /// when asked for after `close()`, and finishes when the client closes. Before the store
    /// opens, it starts the open and waits for it; a store that cannot open ends it with its
    /// ``StoreError``.
    private func stream<Source: AsyncSequence & Sendable>(
        bufferingPolicy: AsyncThrowingStream<Source.Element, Error>.Continuation.BufferingPolicy =
            .bufferingNewest(1),
        _ source: @escaping @Sendable (Engine) async throws -> Source
    ) -> AsyncThrowingStream<Source.Element, Error> where Source.Element: Sendable {
        let background: BackgroundWork
        do {
            background = try opening.background()
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        if let engine = opening.current, engine.calls.isClosed {
            return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Source.Element.self, bufferingPolicy: bufferingPolicy)
        let opening = opening
        background.forward(until: continuation) {
            do {
                let engine = try await opening.engine()
                for try await value in try await source(engine) {
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
        guard let engine = opening.current else {
            // Before the store opened: the open starts now, and the read joins at the first `next()`.
            do {
                _ = try opening.background()
            } catch {
                return AsyncThrowingStream { $0.finish(throwing: error) }
            }
            let reader = OpeningSnapshotReader(opening: opening, query: query)
            return AsyncThrowingStream { try await reader.next() }
        }
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
    /// Throws only when the server cannot be reached and nothing is cached. An answer whose
    /// request left before a change of the table (a write, a replay settling) is not taken: the
    /// cached rows answer instead, or with none cached it is asked for again (up to five times,
    /// then ``ClientError/notCached``). With nothing cached, one that left before
    /// `clearLocalData()` throws ``ClientError/cleared``, and one that arrives once `close()` has
    /// begun ends as it would offline.
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
        return try await client.openedEngine().fetchOnce(query)
    }
}

extension OfflineClient {
    /// The encoder of the values handed to writes and calls (``Configuration/encoder``).
    var encoder: JSONEncoder { configuration.encoder }
    /// The decoder of the values read back (``Configuration/decoder``).
    var decoder: JSONDecoder { configuration.decoder }
}
