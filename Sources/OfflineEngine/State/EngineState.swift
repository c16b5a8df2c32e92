import Foundation
import Streams

/// The one place where what must change together changes: the queue's order and the store's,
/// the session and the cache's owner, clears, ticks and marks, cached lists and the replay log.
///
/// Its methods are the engine's events (a write queued, a write settled, an answer to apply, an
/// accepted write to patch in, the cache passed to a new owner, a clear); its outputs are facts,
/// never snapshots: per table ``TableFacts``, the queue's ``QueueFacts``, the rejected writes
/// and the session, each a keep-newest state stream. Live reads, counters and lists of pending
/// writes are derived from those streams elsewhere (see `LiveReads`).
///
/// Work that awaits the store re-reads what it depends on afterwards (actor reentrancy); the
/// send path instead carries a ``SendTicket`` fixed when the write was picked.
actor EngineState {
    nonisolated let store: Store
    let primaryKeys: PrimaryKeys
    let responseTrust: ResponseTrust
    nonisolated let connectivity: ConnectivityMonitor
    /// The running live reads, whose refreshes this state marks stale.
    nonisolated let liveReads: LiveReads

    nonisolated let session = StateBroadcast<SessionState, Never>(.restoring)
    /// Fires when the session settles: restored, signed in or out, cleared.
    nonisolated let sessionSettled = Signal()
    nonisolated let queueFacts = StateBroadcast<QueueFacts, Never>(QueueFacts())
    /// Every rejected write, every owner's (see ``visibleRejected``).
    nonisolated let rejectedFacts = StateBroadcast<RejectedFacts, Never>(RejectedFacts())
    /// Writes being sent at once, per owner: a later write of that owner waits for them.
    nonisolated let immediateSends = StateBroadcast<[String?: Int], Never>([:])
    /// Fires when a write joins the queue; `replayUrgent` when the session changed.
    nonisolated let replayWork = Signal()
    nonisolated let replayUrgent = Signal()

    /// The user whose data the cache holds (nil: fetched signed out).
    var cacheOwner: String?
    /// Ticks of the last clear and the last change of cache owner; answers to requests that
    /// left before them are refused. `clearedAt` reads `.max` while a clear waits for its tick.
    var clearedAt: Int64 = 0
    var ownerChangedAt: Int64 = 0
    /// How many clears have begun; a ticket taken before the latest is void. Moved before any
    /// `await` of the clear, unlike `clearedAt`, which needs the store's tick.
    var clearEpoch = 0
    /// The last change mark of each table seen (the store keeps them).
    var marks: [TableID: Int64] = [:]
    /// The queue in order, mirrored from the store, with each write's life.
    var queue = WriteQueue()
    /// Per table: its cached lists, queued writes, replay log and facts stream.
    var tables = Tables()
    var closed = false

    init(store: Store, configuration: Configuration, connectivity: ConnectivityMonitor, liveReads: LiveReads)
    {
        self.store = store
        primaryKeys = PrimaryKeys(configuration.primaryKeys)
        responseTrust = configuration.responseTrust
        self.connectivity = connectivity
        self.liveReads = liveReads
    }

    /// Reads back the cache's owner, the queue and the rejected writes.
    func load() async throws {
        cacheOwner = try await store.account.owner()
        for stored in try await store.queue.all() {
            let life = WriteLife.restored(attempts: stored.mutation.attempts, interrupted: stored.isInFlight)
            queue.append(QueueEntry(mutation: stored.mutation, life: life))
            tables.append(stored.mutation)
        }
        let rejected = try await store.rejected.all().map { RejectedMutation($0, primaryKeys: primaryKeys) }
        rejectedFacts.update { $0.all = rejected }
        recountQueue()
        publishOwner()
    }

    // MARK: Owners

    /// The user whose queued writes are laid over the lists: the signed-in user, or while the
    /// stored session is read back, the cache's owner (whose session it most likely is).
    var overlayOwner: String? { session.value == .restoring ? cacheOwner : session.value.userID }

    /// Sends every fact that depends on whose writes are shown, after that may have changed.
    func publishOwner() {
        let owner = overlayOwner
        queueFacts.update { $0.owner = owner }
        rejectedFacts.update { $0.owner = owner }
        tables.changedAll(owner: owner)
    }

    // MARK: Ticks and marks

    /// A tick from the store's monotonic counter, read before a request goes out.
    func nextTick() async throws -> Int64 {
        try await store.marks.nextTick()
    }

    func mark(of table: TableID) async throws -> Int64 {
        if let known = marks[table] { return known }
        let stored = try await store.marks.mark(table: table.table, schema: table.schema)
        let value = max(stored, marks[table] ?? 0)
        marks[table] = value
        return value
    }

    /// Moves a table's mark forward: an answer whose request left before now is refused.
    @discardableResult
    func advanceMark(of table: TableID) async throws -> Int64 {
        let tick = try await store.marks.advance(table: table.table, schema: table.schema)
        marks[table] = max(tick, marks[table] ?? 0)
        return tick
    }

    // MARK: Facts

    /// A table's facts stream, after its cached lists and replay log are loaded.
    func facts(of table: TableID) async throws -> StateBroadcast<TableFacts, Never> {
        try await loadLists(of: table)
        return tables.stream(of: table, owner: overlayOwner)
    }

    /// The facts of a table as they stand.
    func currentFacts(of table: TableID) -> TableFacts {
        tables.facts(of: table, owner: overlayOwner)
    }

    /// Counts `delta` more queued writes of `owner` (fewer, when negative).
    func countQueued(_ owner: String?, by delta: Int) {
        queueFacts.update { facts in
            let count = (facts.counts[owner] ?? 0) + delta
            facts.counts[owner] = count > 0 ? count : nil
        }
    }

    /// Counts the queue's writes afresh (after a clear or a change of owners).
    func recountQueue() {
        var counts: [String?: Int] = [:]
        for entry in queue.all { counts[entry.mutation.ownerID, default: 0] += 1 }
        queueFacts.update { $0.counts = counts }
    }

    // MARK: Closing

    /// Makes the calls under way end as they would offline: answers are refused, writes queue,
    /// and nothing waits for the session any more.
    func beginClosing() {
        closed = true
        session.finish()
        sessionSettled.finish()
    }

    /// Finishes the fact streams, once no call is under way.
    func close() {
        beginClosing()
        queueFacts.finish()
        rejectedFacts.finish()
        immediateSends.finish()
        replayWork.finish()
        replayUrgent.finish()
        tables.finish()
    }
}
