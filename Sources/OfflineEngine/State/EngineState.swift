import Foundation
import Streams

/// The one place where what must change together changes: the queue's order and the store's,
/// whose cache is shown and the clears it went through, the cached lists and the replay log in
/// memory. Its own methods are the queue's events and the clears; the other events run on its
/// isolation as parts of their own (``SessionEvents``, ``ReplayEvents``, ``CachedLists``,
/// ``Answers``). Its outputs are keep-newest facts (``StateOutputs``), never snapshots. See
/// `docs/architecture.md`. Work that awaits the store re-reads what it depends on afterwards; a
/// send instead carries a ``SendTicket`` fixed when its write was picked.
actor EngineState {
    nonisolated let store: Store
    let rules: StateRules
    nonisolated let outputs: StateOutputs
    nonisolated let services: StateServices
    var ownership = CacheOwnership()
    /// The queue in order, mirrored from the store, with each write's life.
    var queue = WriteQueue()
    /// Per table: its cached lists, queued writes, replay log, feed log and facts stream.
    var tables: Tables
    var closed = false

    init(
        store: Store, rules: StateRules, outputs: StateOutputs, services: StateServices,
        related: [TableID: [TableID]]
    ) {
        self.store = store
        self.rules = rules
        self.outputs = outputs
        self.services = services
        tables = Tables(relatedTables: related)
    }

    /// Reads back the cache's owner, the queue and the rejected writes.
    func load() async throws {
        ownership.owner = try await store.account.owner()
        for stored in try await store.queue.all() {
            let life = WriteLife.restored(attempts: stored.mutation.attempts, interrupted: stored.isInFlight)
            queue.append(QueueEntry(mutation: stored.mutation, life: life))
            tables.append(stored.mutation)
        }
        try await outputs.rejected.load()
        publishQueue()
        publishOwner()
    }

    /// The cached lists of the cache now, in the store.
    var lists: ListTable { store.lists(of: ownership.partition) }

    /// The replayed writes an answer to a list of the cache now may retire: under
    /// ``CacheSharing/perUser`` those of the cache's owner alone, whose lists these are.
    var retiring: WriteOwners { rules.sharing == .perUser ? .only(ownership.owner) : .everyone }

    /// The user whose queued writes are laid over the lists (see ``CacheOwnership``).
    var overlayOwner: String? { ownership.overlayOwner(outputs.session.value) }

    /// Sends every fact that depends on whose writes are shown, after that may have changed.
    func publishOwner() {
        let owner = overlayOwner
        let oldest = queue.oldest(visibleTo: owner)
        outputs.queue.update {
            $0.owner = owner
            $0.oldest = oldest
        }
        outputs.rejected.show(owner: owner)
        tables.changedAll(owner: owner)
    }

    /// A table's facts stream, once what a live read of `key` needs is loaded (nothing, without).
    func facts(of table: TableID, for key: String?) async throws -> StateBroadcast<TableFacts, Never> {
        if let key { try await CachedLists.load(of: table, for: key, in: self) }
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
        outputs.queue.update {
            $0.counts = counts
            $0.oldest = oldest
        }
    }

    /// Makes the calls under way end as they would offline: answers are refused, writes queue,
    /// and nothing waits for the session any more.
    func beginClosing() {
        closed = true
        outputs.beginClosing()
    }

    /// Finishes the fact streams, once no call is under way.
    func close() {
        beginClosing()
        outputs.finish()
        services.immediateSends.finish()
        services.cache.finish()
        tables.finish()
    }
}
