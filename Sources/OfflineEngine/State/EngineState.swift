import Foundation
import Streams

/// The one place where what must change together changes (the queue's order and the store's,
/// owners, clears, cached lists, the replay log). Its methods are the engine's events; its
/// outputs are keep-newest facts streams, never snapshots; its state is values changed by their
/// own methods. See `docs/architecture.md`. Work that awaits the store re-reads what it depends
/// on afterwards; a send instead carries a ``SendTicket`` fixed when its write was picked.
actor EngineState {
    nonisolated let store: Store
    let primaryKeys: PrimaryKeys
    let responseTrust: ResponseTrust
    /// Whether each user has a cache of their own, or one is handed over.
    let sharing: CacheSharing
    nonisolated let connectivity: ConnectivityMonitor
    /// The running live reads, whose refreshes this state marks stale.
    nonisolated let liveReads: LiveReads
    nonisolated let marks: ChangeMarks

    nonisolated let session = StateBroadcast<SessionState, Never>(.restoring)
    nonisolated let queueFacts = StateBroadcast<QueueFacts, Never>(QueueFacts())
    /// What the client did, for the app's logs (``OfflineClient/events``).
    nonisolated let events: EventBroadcast<SyncEvent, Never>
    /// How the replay stands: sending or not, its last failure, its last success.
    nonisolated let uploads = StateBroadcast<UploadFacts, Never>(UploadFacts())
    nonisolated let rejected: RejectedWrites
    nonisolated let immediateSends = ImmediateSends()
    nonisolated let signals = ReplaySignals()
    nonisolated let ticketGate = TicketGate()
    /// The one-shot reads reading a list now, which an eviction keeps.
    nonisolated let listsInUse: ListsInUse
    /// The cache's budget and its eviction passes.
    nonisolated let cache: CacheKeeper
    var ownership = CacheOwnership()
    /// The queue in order, mirrored from the store, with each write's life.
    var queue = WriteQueue()
    /// Per table: its cached lists, queued writes, replay log and facts stream.
    var tables = Tables()
    /// The changes from the server's feed laid lately, for answers that left before them.
    var feedLog = FeedLog()
    var closed = false

    init(
        store: Store, configuration: Configuration, connectivity: ConnectivityMonitor, liveReads: LiveReads,
        events: EventBroadcast<SyncEvent, Never> = EventBroadcast()
    ) {
        self.store = store
        self.events = events
        primaryKeys = PrimaryKeys(configuration.keyColumns, foreignKeys: configuration.foreignKeys)
        for (table, foreignKeys) in configuration.foreignKeys where !foreignKeys.isEmpty {
            tables.relatedTables[TableID(schema: nil, table: table)] = foreignKeys.keys.sorted().map {
                TableID(schema: nil, table: $0)
            }
        }
        responseTrust = configuration.responseTrust
        sharing = configuration.sharing
        self.connectivity = connectivity
        self.liveReads = liveReads
        marks = ChangeMarks(store: store)
        rejected = RejectedWrites(store: store, primaryKeys: primaryKeys)
        let inUse = ListsInUse()
        listsInUse = inUse
        cache = CacheKeeper(
            policy: configuration.cache, store: store, now: configuration.now,
            keeping: { liveReads.keys.union(inUse.keys) })
    }

    /// Reads back the cache's owner, the queue and the rejected writes.
    func load() async throws {
        ownership.owner = try await store.account.owner()
        for stored in try await store.queue.all() {
            let life = WriteLife.restored(attempts: stored.mutation.attempts, interrupted: stored.isInFlight)
            queue.append(QueueEntry(mutation: stored.mutation, life: life))
            tables.append(stored.mutation)
        }
        try await rejected.load()
        publishQueue()
        publishOwner()
    }

    /// The cached lists of the cache now, in the store.
    var lists: ListTable { store.lists(of: ownership.partition) }

    /// The replayed writes an answer to a list of the cache now may retire: under
    /// ``CacheSharing/perUser`` those of the cache's owner alone, whose lists these are.
    var retiring: WriteOwners { sharing == .perUser ? .only(ownership.owner) : .everyone }

    /// The user whose queued writes are laid over the lists (see ``CacheOwnership``).
    var overlayOwner: String? { ownership.overlayOwner(session.value) }

    /// Sends every fact that depends on whose writes are shown, after that may have changed.
    func publishOwner() {
        let owner = overlayOwner
        let oldest = queue.oldest(visibleTo: owner)
        queueFacts.update {
            $0.owner = owner
            $0.oldest = oldest
        }
        rejected.show(owner: owner)
        tables.changedAll(owner: owner)
    }

    /// A table's facts stream, once what a live read of `key` needs is loaded (nothing, without).
    func facts(of table: TableID, for key: String?) async throws -> StateBroadcast<TableFacts, Never> {
        if let key { try await loadLists(of: table, for: key) }
        return tables.stream(of: table, owner: overlayOwner)
    }

    /// The facts of a table as they stand.
    func currentFacts(of table: TableID) -> TableFacts {
        tables.facts(of: table, owner: overlayOwner)
    }

    /// Sends the queue's counts of stored writes, after writes were stored, left or changed hands.
    func publishQueue() {
        let counts = queue.storedCounts
        let oldest = queue.oldest(visibleTo: overlayOwner)
        queueFacts.update {
            $0.counts = counts
            $0.oldest = oldest
        }
    }

    /// Makes the calls under way end as they would offline: answers are refused, writes queue,
    /// and nothing waits for the session any more.
    func beginClosing() {
        closed = true
        ticketGate.void()
        session.finish()
        signals.sessionSettled.finish()
    }

    /// Finishes the fact streams, once no call is under way.
    func close() {
        beginClosing()
        queueFacts.finish()
        uploads.finish()
        events.finish()
        rejected.finish()
        immediateSends.finish()
        signals.finish()
        cache.finish()
        tables.finish()
    }
}
