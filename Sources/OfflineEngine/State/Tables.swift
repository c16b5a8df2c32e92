import Foundation
import Streams

/// What ``EngineState`` holds per table (cached lists, queued writes, replay log, facts
/// stream), with the changes it makes to them: plain value logic, no `await`. The state
/// actor decides when each change may happen; this says what it does.
struct Tables: Sendable {
    /// Each table's state (internal for the extensions in other files, such as `Tables+Cache`).
    var byID: [TableID: TableState] = [:]
    /// The serial of the newest answer written.
    private(set) var answerSerial = 0
    /// Tables with writes appended since their facts were last sent.
    private var appended: Set<TableID> = []
    /// Per table, the tables it declares foreign keys to (``TableFacts/related``).
    var relatedTables: [TableID: [TableID]] = [:]
    /// Whether the lists in memory were dropped for a new cache whose lists the live reads need
    /// are still being read (``TableFacts/awaitingLists``).
    private(set) var awaitingLists = false
    /// The changes from the server's feed laid lately, for answers that left before them.
    var feedLog = FeedLog()
    /// The writes sent at once that the lists show as pending while their requests wait: only
    /// these are looked for when a write stops showing as sent (a write queued offline is not,
    /// so queueing one never searches its table's writes).
    private(set) var shownAsSent: Set<UUID> = []

    /// No table yet; `relatedTables` from the configuration's foreign keys.
    init(relatedTables: [TableID: [TableID]] = [:]) {
        self.relatedTables = relatedTables
    }

    subscript(table: TableID) -> TableState? { byID[table] }

    /// What is held of every table.
    var all: [TableState] { Array(byID.values) }

    // MARK: Facts

    /// The table's facts stream, made on first ask.
    mutating func stream(of table: TableID, owner: String?) -> StateBroadcast<TableFacts, Never> {
        if let existing = byID[table]?.facts { return existing }
        let initial = facts(of: table, owner: owner)
        let broadcast = StateBroadcast<TableFacts, Never>(initial)
        byID[table, default: TableState()].facts = broadcast
        byID[table]?.sent = SentFacts(version: initial.version, owner: owner, queued: initial.queued)
        return broadcast
    }

    /// How many writes to `table` are queued, every owner's.
    func queuedCount(of table: TableID) -> Int {
        byID[table]?.queued.count ?? 0
    }

    /// The table's facts as they stand.
    func facts(of table: TableID, owner: String?) -> TableFacts {
        let state = byID[table] ?? TableState()
        var facts = TableFacts(table: table, owner: owner)
        facts.lists = state.lists
        facts.queued = state.queued
        facts.replayed = state.replayed
        facts.version = state.version
        facts.answers = answerSerial
        facts.listsComplete = state.loaded
        facts.awaitingLists = awaitingLists
        facts.queuedUpdates = state.queuedUpdates
        for other in relatedTables[table] ?? [] {
            facts.related[other.table] = byID[other]?.lists.values.map(\.list) ?? []
        }
        return facts
    }

    /// Sends a table's facts after a change other than writes appended to its queue.
    mutating func changed(_ table: TableID, owner: String?) {
        byID[table, default: TableState()].version += 1
        publish(table, owner: owner)
    }

    /// Sends every table's facts (after a change of whose writes are shown).
    mutating func changedAll(owner: String?) {
        for table in byID.keys { changed(table, owner: owner) }
    }

    /// Sends a table's facts as they stand, saying which writes alone were appended since the
    /// facts sent before (``TableFacts/appendedSince``).
    mutating func publish(_ table: TableID, owner: String?) {
        appended.remove(table)
        guard let broadcast = byID[table]?.facts else { return }
        var facts = facts(of: table, owner: owner)
        if let sent = byID[table]?.sent, sent.version == facts.version, sent.owner == owner,
            facts.queued.extends(sent.queued)
        {
            facts.appendedSince = sent.queued
        }
        byID[table]?.sent = SentFacts(version: facts.version, owner: owner, queued: facts.queued)
        broadcast.send(facts)
    }

    /// Sends the table's facts if writes were appended since they were last sent.
    mutating func publishAppended(_ table: TableID, owner: String?) {
        if appended.contains(table) { publish(table, owner: owner) }
    }

    /// Finishes every facts stream.
    func finish() {
        for state in byID.values { state.facts?.finish() }
    }

    // MARK: Queued writes

    /// Appends a queued write to its table; its facts are sent with ``publishAppended(_:owner:)``.
    mutating func append(_ write: Mutation) {
        let table = TableID(write)
        let queued = (byID[table]?.queued ?? WriteLog()).appending(write)
        byID[table, default: TableState()].queued = queued
        if write.operation == .update { byID[table]?.queuedUpdates += 1 }
        appended.insert(table)
    }

    /// Shows a write sent at once among its table's writes while its request waits.
    mutating func showAsSent(_ write: Mutation) {
        shownAsSent.insert(write.id)
        append(write)
    }

    /// A write sent at once no longer shows as sent: it queued, the server took it, or it
    /// failed. Nothing is looked for (or sent) for a write that never showed as sent.
    mutating func endShowingAsSent(_ write: Mutation, owner: String?, publishing: Bool = true) {
        guard shownAsSent.remove(write.id) != nil else { return }
        remove([write], owner: owner, publishing: publishing)
    }

    /// Takes queued writes out of their tables, sending the facts of each table that held one
    /// once (unless `publishing` is false: the caller changes the table again before it sends
    /// them). A write no table holds (a write sent at once whose patch took its place) sends
    /// nothing: every live read of a table whose facts change lays its overlay anew.
    mutating func remove(_ writes: [Mutation], owner: String?, publishing: Bool = true) {
        var touched: [TableID] = []
        for write in writes {
            let table = TableID(write)
            if let held = byID[table]?.queued, case let kept = held.removing(write.id),
                kept.count < held.count
            {
                byID[table]?.queued = kept
                if write.operation == .update { byID[table]?.queuedUpdates -= 1 }
                if !touched.contains(table) { touched.append(table) }
            }
        }
        guard publishing else { return }
        for table in touched { changed(table, owner: owner) }
    }

    /// Owner-less queued writes of `tables` become `user`'s.
    mutating func claimOwnerless(in tables: Set<TableID>, for user: String, owner: String?) {
        for table in tables {
            let claimed = byID[table]?.queued.map { write in
                var write = write
                if write.ownerID == nil { write.ownerID = user }
                return write
            }
            if let claimed { byID[table]?.queued = claimed }
            changed(table, owner: owner)
        }
    }

    // MARK: Lists and the replay log

    /// Whether every cached list of the table and its replay log were read from the store.
    func isLoaded(_ table: TableID) -> Bool { byID[table]?.loaded == true }

    /// Whether a live read's list of the table was read without the table's other lists.
    func isPartlyLoaded(_ table: TableID) -> Bool {
        byID[table].map { $0.replayLoaded && !$0.loaded } ?? false
    }

    /// What must be read from the store before the table's facts serve a live read of `key`
    /// (`nil`: every list), or `nil` when nothing must. One list, with the replay log, is enough
    /// unless the overlay may need the table's other lists: an UPDATE queued or replayed can
    /// move their rows in.
    func listsToLoad(_ table: TableID, for key: String? = nil) -> ListLoad? {
        let state = byID[table] ?? TableState()
        if state.loaded { return nil }
        guard let key, state.queuedUpdates == 0,
            !state.replayed.contains(where: { $0.mutation.operation == .update })
        else { return .all }
        if state.lists[key] != nil, state.replayLoaded { return nil }
        return .one(key: key, replayLog: !state.replayLoaded)
    }

    /// Takes in what was read of the table; lists already held (written meanwhile) stay, and
    /// replayed writes logged meanwhile join those read.
    mutating func load(_ table: TableID, _ read: TableRead, owner: String?) {
        var state = byID[table] ?? TableState()
        if read.complete { state.loaded = true }
        if let replayed = read.replayed, !state.replayLoaded {
            let stored = Set(replayed.map(\.mutation.id))
            state.replayed = ReplayLog.capped(
                replayed + state.replayed.filter { !stored.contains($0.mutation.id) })
            state.replayLoaded = true
        }
        for list in read.lists where state.lists[list.key] == nil {
            guard let query = QueryDescription(canonicalKey: list.key) else { continue }
            state.lists[list.key] = ListEntry(
                list: CachedList(query: query, rows: list.rows, fetchTick: Int(list.mark)),
                fetchedAt: list.fetchedAt, isStale: list.isStale, answer: nil, expiresAt: list.expiresAt,
                countBeyond: list.countBeyond)
        }
        byID[table] = state
        changed(table, owner: owner)
    }

    /// Writes an answer as the list of `query` (with the rows its count holds beyond them, when
    /// it was counted) and retires the replayed writes logged through `retiredThrough` (the store
    /// retired them in the answer's commit: see ``retirement(of:listing:fetchedAt:retiring:)``),
    /// sending one facts value; returns the answer's serial.
    mutating func writeAnswer(
        _ rows: [Row], query: QueryDescription, tick: Int64, fetchedAt: Date, expiresAt: Date? = nil,
        countBeyond: Int? = nil, answering: String?, owner: String?, retiring: WriteOwners = .everyone,
        retiredThrough: Int64? = nil
    ) -> Int {
        answerSerial += 1
        let table = TableID(query)
        byID[table, default: TableState()].lists[query.canonicalKey] = ListEntry(
            list: CachedList(query: query, rows: rows, fetchTick: Int(tick)), fetchedAt: fetchedAt,
            isStale: false, answer: AnswerStamp(serial: answerSerial, refreshOf: answering),
            expiresAt: expiresAt, countBeyond: countBeyond)
        // One facts value: the new list, and the replayed writes it retired.
        if let retiredThrough { retireReplayed(of: table, through: retiredThrough, retiring: retiring) }
        changed(table, owner: owner)
        return answerSerial
    }

    /// Adds a write the server applied to its table's replay log.
    mutating func addReplayed(_ entry: ReplayEntry) {
        addReplayed([entry])
    }

    /// Adds replayed writes, oldest first, to their tables' logs; each log is trimmed to the cap
    /// once, so a replay run costs its own writes, not the log's length per write.
    mutating func addReplayed(_ entries: [ReplayEntry]) {
        for (table, added) in Dictionary(grouping: entries, by: { TableID($0.mutation) }) {
            var log = byID[table]?.replayed ?? []
            // Ticks only grow, so the entries join at the end in place.
            guard let first = added.first, (log.last?.tick ?? .min) <= first.tick else {
                byID[table, default: TableState()].replayed = ReplayLog.capped(log + added)
                continue
            }
            byID[table]?.replayed = []
            log.append(contentsOf: added)
            let excess = log.count - ReplayLog.capPerTable
            if excess > 0 { log.removeFirst(excess) }
            byID[table, default: TableState()].replayed = log
        }
    }

    /// Marks every cached list of the table stale.
    mutating func markStale(_ table: TableID, owner: String?) {
        for key in byID[table]?.lists.keys.map({ $0 }) ?? [] {
            byID[table]?.lists[key]?.isStale = true
        }
        changed(table, owner: owner)
    }

    /// The cache passed to a new owner: every list is stale, and its rows are no longer an
    /// answer to the current owner.
    mutating func passToNewOwner(owner: String?) {
        for table in byID.keys {
            for key in byID[table]?.lists.keys.map({ $0 }) ?? [] {
                byID[table]?.lists[key]?.isStale = true
                byID[table]?.lists[key]?.answer = nil
            }
            changed(table, owner: owner)
        }
    }

    /// Forgets every table's cached lists (the cache changed hands), keeping queued and replayed
    /// writes; lists are loaded again from the store, from the new cache, when next asked for.
    mutating func unloadLists(owner: String?) {
        awaitingLists = true
        for table in byID.keys {
            byID[table]?.lists = [:]
            byID[table]?.loaded = false
            changed(table, owner: owner)
        }
    }

    /// Ends ``unloadLists(owner:)``'s wait: the live reads' lists were read from the new cache
    /// (or could not be), and their snapshots follow the facts again.
    mutating func endAwaitingLists(owner: String?) {
        guard awaitingLists else { return }
        awaitingLists = false
        changedAll(owner: owner)
    }

    /// Forgets the queued and replayed writes of `user` (their data was cleared), sending each
    /// touched table's facts once.
    mutating func forgetWrites(of user: String, owner: String?) {
        for table in byID.keys {
            guard let state = byID[table] else { continue }
            let queued = state.queued.writes.filter { $0.ownerID == user }
            let replayed = state.replayed.filter { $0.mutation.ownerID != user }
            guard !queued.isEmpty || replayed.count != state.replayed.count else { continue }
            byID[table]?.replayed = replayed
            remove(queued, owner: owner)
            changed(table, owner: owner)
        }
    }

    /// Wipes every table's lists, queued writes and replay log; facts streams stay, and lists
    /// are loaded again from the (wiped) store when next asked for.
    mutating func wipe(owner: String?) {
        for table in byID.keys {
            let (facts, version) = (byID[table]?.facts, byID[table]?.version ?? 0)
            byID[table] = TableState(version: version + 1, facts: facts)
            publish(table, owner: owner)
        }
    }

    /// Lays a write the server accepted at once (with the rows it returned, when it asked for
    /// them) into every cached list of its table, and into the live reads of `liveQueries` that
    /// have no list yet; returns the lists to save and the keys to fetch again, where the write's
    /// effect cannot be worked out.
    mutating func patchAccepted(
        _ write: Mutation, returned: [Row], liveQueries: [QueryDescription], primaryKeys: PrimaryKeys,
        tick: Int64, owner: String?
    ) -> (changed: [StoredList], stale: Set<String>) {
        let table = TableID(write)
        let lists = byID[table]?.lists ?? [:]
        let cached = lists.keys.sorted().compactMap { key in lists[key].map { (key, $0.list) } }
        let uncached = liveQueries.filter { lists[$0.canonicalKey] == nil }
        let result = Overlay<FilterEvaluator>.engine(primaryKeys: primaryKeys).patch(
            write, returned: write.returning == nil ? nil : returned, into: cached.map(\.1),
            uncachedReads: uncached)
        let patches =
            zip(cached, result.lists).map { (key: $0.0, query: $0.1.query, patch: $1) }
            + zip(uncached, result.uncachedReads).map { (key: $0.canonicalKey, query: $0, patch: $1) }
        return apply(patches, to: table, tick: tick, owner: owner)
    }

    /// Lays patches into the table's lists (a list not cached yet is made): returns the lists to
    /// save and the keys of those to fetch again.
    mutating func apply(
        _ patches: [(key: String, query: QueryDescription, patch: ListPatch)], to table: TableID, tick: Int64,
        owner: String?
    ) -> (changed: [StoredList], stale: Set<String>) {
        var changedLists = [StoredList]()
        var stale = Set<String>()
        for (key, query, patch) in patches {
            switch patch {
            case .unchanged:
                continue
            case .rows(let rows):
                var entry =
                    byID[table]?.lists[key]
                    ?? ListEntry(
                        list: CachedList(query: query, rows: [], fetchTick: Int(tick)), fetchedAt: nil,
                        isStale: false, answer: nil)
                entry.list.rows = rows
                byID[table, default: TableState()].lists[key] = entry
                changedLists.append(entry.stored(key: key))
            case .stale:
                byID[table]?.lists[key]?.isStale = true
                stale.insert(key)
            }
        }
        changed(table, owner: owner)
        return (changedLists, stale)
    }
}

/// What ``EngineState`` holds of one table.
struct TableState: Sendable {
    var lists: [String: ListEntry] = [:]
    var queued = WriteLog()
    var replayed: [ReplayEntry] = []
    /// Whether every cached list and the replay log were read from the store.
    var loaded = false
    /// Whether the replay log was read from the store.
    var replayLoaded = false
    /// How many of the queued writes are UPDATEs (they may need the table's other lists).
    var queuedUpdates = 0
    /// Changes with every change but appended writes (see ``TableFacts/version``).
    var version = 0
    /// The facts stream, made when a live read first asks.
    var facts: StateBroadcast<TableFacts, Never>?
    /// What the facts last sent were laid from.
    var sent: SentFacts?
}

/// What a table's facts were last sent with: enough to tell whether the next facts differ only
/// by writes appended to the queue.
struct SentFacts: Sendable {
    var version: Int
    var owner: String?
    var queued: WriteLog
}
