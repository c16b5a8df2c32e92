import Foundation
import Streams

/// The client's parts, wired together: the state (``EngineState``, where what must change
/// together changes), the live reads derived from its facts (``LiveReads``), the replay
/// (``Replayer``), the calls under way (``CallGate``) and the background work that runs beside
/// them (``BackgroundWork``).
///
/// It holds no state of its own: each call is an event of the state, or a request whose answer
/// becomes one.
final class Engine: Sendable {
    let configuration: Configuration
    let endpoint: RESTEndpoint
    let primaryKeys: PrimaryKeys
    let transport: RetryingTransport
    let connectivity: ConnectivityMonitor
    let state: EngineState
    let store: Store
    /// The state's facts and signals, handed to their readers from here.
    let outputs: StateOutputs
    /// How the replay stands; the replay is its one writer.
    let uploads = StateBroadcast<UploadFacts, Never>(UploadFacts())
    let liveReads = LiveReads()
    /// The one-shot reads reading a list now, which an eviction keeps.
    let listsInUse = ListsInUse()
    /// The cache's budget and its eviction passes.
    let cache: CacheKeeper
    /// Writes being sent at once, per owner.
    let immediateSends = ImmediateSends()
    let calls = CallGate()
    /// The followed tables whose change feed is down.
    let feeds = FeedConnections()
    /// The replay loop, the watchers, the restore and the client's stream bridges, as child tasks.
    let background: BackgroundWork

    /// An engine on the open `store`. The client hands over the parts it made before the store
    /// opened: the background work the open ran in, the network monitor and the events' broadcast.
    init(
        configuration: Configuration, store: Store, background: BackgroundWork = BackgroundWork(),
        connectivity: ConnectivityMonitor = ConnectivityMonitor(),
        events: EventBroadcast<SyncEvent, Never> = EventBroadcast()
    ) {
        self.configuration = configuration
        self.background = background
        endpoint = RESTEndpoint(url: configuration.url, apiKey: configuration.apiKey)
        primaryKeys = PrimaryKeys(configuration.keyColumns, foreignKeys: configuration.foreignKeys)
        transport = RetryingTransport(base: configuration.transport, clock: configuration.clock) {
            [connectivity] in connectivity.current != .offline
        }
        self.connectivity = connectivity
        self.store = store
        let rules = StateRules(
            primaryKeys: primaryKeys, sharing: configuration.sharing,
            responseTrust: configuration.responseTrust)
        outputs = StateOutputs(store: store, primaryKeys: rules.primaryKeys, events: events)
        let (liveReads, listsInUse) = (liveReads, listsInUse)
        cache = CacheKeeper(
            policy: configuration.cache, store: store, now: configuration.now,
            keeping: { liveReads.keys.union(listsInUse.keys) })
        let services = StateServices(
            liveReads: liveReads, connectivity: connectivity, immediateSends: immediateSends, cache: cache)
        var related: [TableID: [TableID]] = [:]
        for (table, foreignKeys) in configuration.foreignKeys where !foreignKeys.isEmpty {
            related[TableID(schema: nil, table: table)] = foreignKeys.keys.sorted().map {
                TableID(schema: nil, table: $0)
            }
        }
        state = EngineState(
            store: store, rules: rules, outputs: outputs, services: services, related: related)
    }

    /// Reads for requests whose answers this state judges.
    var reads: ServerReads {
        ServerReads(
            endpoint: endpoint, transport: transport, outputs: outputs, connectivity: connectivity,
            tokens: tokens)
    }

    /// The token each request carries (see ``SessionTokens``).
    var tokens: SessionTokens {
        SessionTokens(provider: configuration.accessToken, state: state, now: { Date() })
    }

    /// Reads back what the store holds, then starts the replay loop, the connectivity watcher and
    /// the session's restore.
    func start() async throws {
        try await state.load()
        if let availability = configuration.networkAvailability {
            let monitor = connectivity
            background.run { await monitor.follow(availability) }
        }
        let replayer = Replayer(
            state: state, outputs: outputs, connectivity: connectivity, uploads: uploads, endpoint: endpoint,
            transport: transport, reads: reads, tokens: tokens,
            primaryKeys: primaryKeys, clock: configuration.clock, classify: configuration.classifyFailure,
            limits: WriteLimits(maxAttempts: configuration.maxAttempts, maxAge: configuration.maxWriteAge),
            batching: configuration.replayBatching)
        background.run { await replayer.run() }
        // The launch pass of the cache's budget, then one after each write that goes over it.
        background.run { [state, cache] in await cache.run(state) }
        // The stored session is read back while the client is already usable: until it settles
        // the session reads `.restoring`, live reads show their cached rows and wait to refresh.
        background.run { [self] in await restoreSession() }
    }

    /// Settles the session the client starts with, unless the app signed in or out meanwhile
    /// (its word wins over the restored one).
    ///
    /// With ``Configuration/restoreSession`` the app's answer settles it as the app's own call
    /// would (a session signs in, taking the cache over for a new user; `nil` signs out); if that
    /// throws, or without one, the session stored at the last sign-in is read back.
    private func restoreSession() async {
        guard let restored = await askAppForSession() else {
            // The session stored at the last sign-in, or signed out when none is.
            let stored = try? await store.account.session()
            await SessionEvents.endRestore(stored.map(SessionState.signedIn) ?? .signedOut, in: state)
            return
        }
        // The app signed in or out meanwhile, or the client is closing: its word stands.
        guard outputs.session.value == .restoring, !calls.isClosed else { return }
        do {
            if let restored {
                try await signIn(restored)
            } else {
                try await signOut()
            }
        } catch {
            // The store failed after the session was sent: it stands, and nothing may wait
            // for it forever.
            await SessionEvents.endRestore(nil, in: state)
        }
    }

    /// The app's answer to ``Configuration/restoreSession``; without one, the user of the token
    /// ``Configuration/accessToken`` gives (its `sub`), when it gives one. `nil` when neither
    /// answers (no provider, a throw, no token, a token that names no user): the stored session
    /// stands.
    private func askAppForSession() async -> AuthSession?? {
        if let provider = configuration.restoreSession {
            do {
                return .some(try await provider())
            } catch {
                return nil
            }
        }
        guard let tokens = configuration.accessToken, let token = try? await tokens(),
            let claims = TokenClaims(jwt: token), let user = claims.subject
        else { return nil }
        return .some(AuthSession(accessToken: token, userID: user, expiresAt: claims.expiresAt))
    }

    /// Returns once the stored session has been read back (or the client closes).
    func waitForSessionToSettle() async {
        // Settled once and for all in almost every call: no reader is made for it.
        guard outputs.session.value == .restoring else { return }
        for await current in outputs.session.values() where current != .restoring {
            break
        }
    }

    // MARK: Session

    func signIn(_ session: AuthSession) async throws {
        try await calls.underway { try await SessionEvents.signIn(session, in: state) }
    }

    func signOut() async throws {
        try await calls.underway { try await SessionEvents.signOut(in: state) }
    }

    func clearLocalData() async throws {
        try await calls.underway { try await state.clearLocalData() }
    }

    func clearLocalData(user: String) async throws {
        try await calls.underway { try await state.clearLocalData(user: user) }
    }

    func dismissRejected(_ id: UUID) async throws {
        try await calls.underway { try await outputs.rejected.dismiss(id) }
    }

    func retryRejected(_ id: UUID, values: [Row]?) async throws -> PendingMutation {
        try await calls.underway {
            guard let pending = try await state.retryRejected(id, values: values) else {
                throw ClientError.notRejected
            }
            return pending
        }
    }

    func invalidate(_ table: TableID) async throws {
        try await calls.underway { try await CachedLists.markStale(table, in: state) }
    }

    // MARK: Cache

    func cacheSize() async throws -> Int {
        try await calls.underway {
            await cache.settled()
            return store.listBytes.value
        }
    }

    func evict(_ scope: EvictionScope, compacting: Bool) async throws -> Int {
        try await calls.underway { try await cache.evict(scope, state, compacting: compacting) }
    }

    /// Wakes the replay and every live read waiting on its retry schedule.
    func syncNow() {
        outputs.signals.work.fire()
        outputs.signals.urgent.fire()
        liveReads.tryNow()
    }

    // MARK: Closing

    /// Ends the client: refreshes stop and live readers finish, the calls under way end as they
    /// would offline, then the fact streams finish and the store closes.
    func close() async {
        guard await closeParts() else { return }
        await background.stop()
        await store.close()
    }

    /// Ends a client whose ``start()`` threw, from inside its background work (which it cannot
    /// stop from there; nothing was started in it): everything ``close()`` ends but that work.
    func abandon() async {
        guard await closeParts() else { return }
        await store.close()
    }

    /// Refuses new calls and ends the live reads, the calls under way and the fact streams;
    /// `false` when a close had begun already.
    private func closeParts() async -> Bool {
        guard calls.refuseNewCalls() else { return false }
        await state.beginClosing()
        await liveReads.close()
        await calls.waitUntilIdle()
        await state.close()
        uploads.finish()
        connectivity.close()
        feeds.finish()
        return true
    }
}
