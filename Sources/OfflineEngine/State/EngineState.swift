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
    var tables: [TableID: TableState] = [:]
    /// The serial of the newest answer written.
    var answerSerial = 0
    var closed = false
    /// Tables with writes appended since their facts were last sent, and whether a send of them
    /// is on its way: writes queued together are sent in one facts value.
    var appendedSincePublish: Set<TableID> = []
    var publishScheduled = false
    /// Runs a job beside the engine (its background work), for the coalesced sends.
    let runBeside: @Sendable (@escaping @Sendable () async -> Void) -> Void

    init(
        store: Store, configuration: Configuration, connectivity: ConnectivityMonitor, liveReads: LiveReads,
        runBeside: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Void
    ) {
        self.runBeside = runBeside
        self.store = store
        primaryKeys = PrimaryKeys(configuration.primaryKeys)
        responseTrust = configuration.responseTrust
        self.connectivity = connectivity
        self.liveReads = liveReads
    }

    /// Reads back the cache's owner, the queue and the rejected writes.
    func load() async throws {
        cacheOwner = try await store.owner()
        for stored in try await store.allQueued() {
            let life = WriteLife.restored(attempts: stored.mutation.attempts, interrupted: stored.isInFlight)
            queue.append(QueueEntry(mutation: stored.mutation, life: life))
            let table = TableID(stored.mutation)
            let queued = (tables[table]?.queued ?? WriteLog()).appending(stored.mutation)
            tables[table, default: TableState()].queued = queued
        }
        let rejected = try await store.rejected().map { RejectedMutation($0, primaryKeys: primaryKeys) }
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
        for table in tables.keys { changed(table) }
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

    // MARK: Facts

    /// A table's facts stream, after its cached lists and replay log are loaded.
    func facts(of table: TableID) async throws -> StateBroadcast<TableFacts, Never> {
        try await loadLists(of: table)
        if let existing = tables[table]?.facts { return existing }
        let broadcast = StateBroadcast<TableFacts, Never>(makeFacts(table))
        tables[table, default: TableState()].facts = broadcast
        return broadcast
    }

    /// The facts of a table as they stand.
    func currentFacts(of table: TableID) -> TableFacts {
        makeFacts(table)
    }

    private func makeFacts(_ table: TableID) -> TableFacts {
        let state = tables[table] ?? TableState()
        var facts = TableFacts(table: table, owner: overlayOwner)
        facts.lists = state.lists
        facts.queued = state.queued
        facts.replayed = state.replayed
        facts.version = state.version
        facts.answers = answerSerial
        return facts
    }

    /// Sends a table's facts after a change other than writes appended to its queue.
    func changed(_ table: TableID) {
        tables[table, default: TableState()].version += 1
        publish(table)
    }

    /// Sends a table's facts as they stand.
    func publish(_ table: TableID) {
        appendedSincePublish.remove(table)
        guard let broadcast = tables[table]?.facts else { return }
        broadcast.send(makeFacts(table))
    }

    /// Sends a table's facts soon, after writes were appended to its queue: writes queued by
    /// callers running together are sent once, when this state is next free.
    func publishSoon(_ table: TableID) {
        guard tables[table]?.facts != nil else { return }
        appendedSincePublish.insert(table)
        guard !publishScheduled else { return }
        publishScheduled = true
        runBeside { [weak self] in await self?.publishAppended() }
    }

    /// Sends the facts of the tables with writes appended since they were last sent.
    func publishAppended() {
        publishScheduled = false
        for table in appendedSincePublish { publish(table) }
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
        closed = true
        session.finish()
        sessionSettled.finish()
        queueFacts.finish()
        rejectedFacts.finish()
        immediateSends.finish()
        replayWork.finish()
        replayUrgent.finish()
        for state in tables.values { state.facts?.finish() }
    }
}

/// What ``EngineState`` holds of one table.
struct TableState: Sendable {
    var lists: [String: ListEntry] = [:]
    var queued = WriteLog()
    var replayed: [ReplayEntry] = []
    /// Whether the cached lists and the replay log were read from the store.
    var loaded = false
    /// Changes with every change but appended writes (see ``TableFacts/version``).
    var version = 0
    /// The facts stream, made when a live read first asks.
    var facts: StateBroadcast<TableFacts, Never>?
}
