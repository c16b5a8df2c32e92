import Foundation
import Streams

/// The client's state and the one place it changes: the session and cache owner, the write
/// queue, the replay log, rejected writes, cached lists and the live reads over them.
///
/// Every change goes through this actor, and each ends by publishing what it changed to the
/// streams readers hold. Work that waits (HTTP, the store) re-checks its assumptions after each
/// `await`, since other calls may have run in between (actor reentrancy).
actor Engine {
    let configuration: Configuration
    let endpoint: RESTEndpoint
    let primaryKeys: PrimaryKeys
    let store: Store
    let transport: RetryingTransport
    nonisolated let connectivity: ConnectivityMonitor
    nonisolated let session: StateBroadcast<SessionState, Never>
    nonisolated let sessionSettled = Signal()
    nonisolated let pendingCount: StateBroadcast<Int, Never>
    nonisolated let rejectedWrites: StateBroadcast<[RejectedMutation], Never>
    let overlay: Overlay<FilterEvaluator>

    /// The user whose data the cache holds (nil: fetched signed out).
    var cacheOwner: String?
    /// Ticks of the last clear and the last change of cache owner; answers to requests that
    /// left before them are refused.
    var clearedAt: Int64 = 0
    var ownerChangedAt: Int64 = 0
    /// How many clears have begun; a send or an answer that started before the latest is void.
    /// Moved before any `await` of the clear, unlike `clearedAt`, which needs the store's tick.
    var clearEpoch = 0
    /// The last change mark of each table seen (the store keeps them).
    var marks: [TableID: Int64] = [:]

    /// The queue in order, mirrored from the store; a write is `durable` once its append returned.
    var queue: [QueuedEntry] = []
    var replayLog: [TableID: [ReplayEntry]] = [:]
    var rejected: [RejectedMutation] = []
    var pendingByTable: [TableID: StateBroadcast<[PendingMutation], Never>] = [:]

    /// Cached lists by canonical key, and the tables whose lists are all loaded.
    var lists: [String: ListEntry] = [:]
    var loadedTables: Set<TableID> = []
    /// The live reads, by canonical key.
    var live: [String: LiveRead] = [:]
    /// Each live read's overlay so far, which writes queued since are added to (see
    /// `OverlayFold`); dropped whenever anything else its rows depend on changes.
    var folds: [String: OverlayFold<FilterEvaluator>] = [:]
    /// Tables with writes queued since their live reads were last published, and whether a
    /// publish of them is on its way: writes queued together are published once.
    var queuedSincePublish: Set<TableID> = []
    var queuedPublishScheduled = false

    /// Writes being sent at once, per owner, and the writes waiting for them to end.
    var immediateInFlight: [String?: Int] = [:]
    var immediateWaiters: [String?: [CheckedContinuation<Void, Never>]] = [:]
    /// Calls under way, so `close()` can let them end as they would offline.
    var callsUnderway = 0
    var closeWaiters: [CheckedContinuation<Void, Never>] = []

    let replayWork = Signal()
    let replayUrgent = Signal()
    /// The replay loop, the watchers, the restore and the refreshes, as child tasks.
    let background = BackgroundWork()
    /// Calls waiting for the stored session to be read back.
    var sessionWaiters: [CheckedContinuation<Void, Never>] = []
    var closed = false

    struct QueuedEntry: Sendable {
        var mutation: Mutation
        var durable: Bool
        /// An earlier attempt got no answer that settled it: the server may have applied it.
        var mayHaveBeenApplied = false
    }

    struct ListEntry: Sendable {
        var list: CachedList
        var fetchedAt: Date?
        var isStale: Bool
    }

    init(configuration: Configuration, store: Store) {
        self.configuration = configuration
        self.store = store
        endpoint = RESTEndpoint(url: configuration.url, apiKey: configuration.apiKey)
        primaryKeys = PrimaryKeys(configuration.primaryKeys)
        transport = RetryingTransport(base: configuration.transport, clock: configuration.clock)
        connectivity = ConnectivityMonitor()
        session = StateBroadcast(.restoring)
        pendingCount = StateBroadcast(0)
        rejectedWrites = StateBroadcast([])
        overlay = Overlay<FilterEvaluator>.engine(primaryKeys: primaryKeys)
    }

    /// Reads back what the store holds, settles the session, and starts the replay loop and the
    /// connectivity watchers.
    func start() async throws {
        cacheOwner = try await store.owner()
        queue = try await store.allQueued().map {
            QueuedEntry(mutation: $0.mutation, durable: true, mayHaveBeenApplied: $0.isInFlight)
        }
        rejected = try await store.rejected().map(rejectedMutation(from:))
        publishRejected()
        publishQueueCount()
        startWatchers()
        // The stored session is read back while the client is already usable: until it settles
        // the session reads `.restoring`, live reads show their cached rows and wait to refresh.
        background.run { [weak self] in await self?.restoreSession() }
    }

    /// Settles the session the client starts with, unless the app signed in or out meanwhile
    /// (its word wins over the restored one).
    ///
    /// With ``Configuration/restoreSession`` the app's answer settles it as the app's own call
    /// would (a session signs in, taking the cache over for a new user; `nil` signs out); if that
    /// throws, or without one, the session stored at the last sign-in is read back.
    func restoreSession() async {
        if let provider = configuration.restoreSession {
            let restored: AuthSession?
            do {
                restored = try await provider()
            } catch {
                await settleStoredSession()
                return
            }
            guard !closed, session.value == .restoring else { return }
            do {
                if let restored {
                    try await signIn(restored)
                } else {
                    try await signOut()
                }
            } catch {
                // The store failed after the session was sent: it stands, and nothing may wait
                // for it forever.
                if !closed { settleSession() }
            }
            return
        }
        await settleStoredSession()
    }

    /// Settles the session to the one stored at the last sign-in (signed out when none is).
    private func settleStoredSession() async {
        let stored = try? await store.session()
        guard !closed, session.value == .restoring else { return }
        session.send(stored.map(SessionState.signedIn) ?? .signedOut)
        settleSession()
    }

    /// Tells everything that waited for the session that it settled.
    func settleSession() {
        let waiters = sessionWaiters
        sessionWaiters = []
        for waiter in waiters { waiter.resume() }
        publishAll()
        publishQueueCount()
        publishRejected()
        sessionSettled.fire()
        wakeReplay(urgent: true)
    }

    /// Returns once the stored session has been read back (or the client closes).
    func waitForSessionToSettle() async {
        while session.value == .restoring, !closed {
            await withCheckedContinuation { sessionWaiters.append($0) }
        }
    }

    private func startWatchers() {
        if let availability = configuration.networkAvailability {
            let monitor = connectivity
            background.run { await monitor.follow(availability) }
        }
        background.run { [weak self] in await self?.runReplayLoop() }
    }

    // MARK: Ticks and marks

    /// A tick from the store's monotonic counter, read before a request goes out.
    func nextTick() async throws -> Int64 {
        try await store.nextTick()
    }

    func mark(of table: TableID) async throws -> Int64 {
        if let known = marks[table] { return known }
        let stored = try await store.mark(table: table.table, schema: table.schema)
        let value = max(stored, marks[table] ?? 0)
        marks[table] = value
        return value
    }

    /// Moves a table's mark forward: an answer whose request left before now is refused.
    @discardableResult
    func advanceMark(of table: TableID) async throws -> Int64 {
        let tick = try await store.advanceMark(table: table.table, schema: table.schema)
        marks[table] = max(tick, marks[table] ?? 0)
        return tick
    }

    // MARK: Calls under way

    /// Runs a call that `close()` waits for; refuses to start one after `close()`.
    func underway<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        guard !closed else { throw ClientError.closed }
        callsUnderway += 1
        defer {
            callsUnderway -= 1
            if callsUnderway == 0 {
                let waiters = closeWaiters
                closeWaiters = []
                for waiter in waiters { waiter.resume() }
            }
        }
        return try await work()
    }

    // MARK: Closing

    func close() async {
        guard !closed else { return }
        closed = true
        let waiters = sessionWaiters
        sessionWaiters = []
        for waiter in waiters { waiter.resume() }
        // Refreshes are not the app's calls: they stop first, so close never waits on a retry.
        let reads = Array(live.values)
        live = [:]
        for read in reads { read.refresher.stop() }
        if callsUnderway > 0 {
            await withCheckedContinuation { closeWaiters.append($0) }
        }
        for read in reads { read.snapshots.finish() }
        session.finish()
        pendingCount.finish()
        rejectedWrites.finish()
        for broadcast in pendingByTable.values { broadcast.finish() }
        sessionSettled.finish()
        replayWork.finish()
        replayUrgent.finish()
        connectivity.close()
        await background.stop()
        await store.close()
    }
}
