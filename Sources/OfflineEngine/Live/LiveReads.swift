import Foundation
import Streams
import Synchronization

/// The live reads being read, by the query's canonical key: one shared pipeline per query, as
/// GRDB shares one observation among its observers while they observe.
///
/// A read's snapshots are derived, never pushed: its table's facts combined with its refresh's
/// reports, composed (``SnapshotComposer``), de-duplicated and shared. The refresh runs as a
/// child of the shared iteration, so the last reader leaving ends it (structured concurrency).
/// Who reads is counted in one place, the share's own readers: ``join(_:facts:primaryKeys:expiry:refresher:)``
/// hands out a reader of the share, and an entry whose share has no reader left is over (it is
/// made anew at the next join). The engine marks the refreshes of the reads being read stale
/// through it. A read whose query has a time to live runs a ``ListExpiry`` beside its refresh.
final class LiveReads: LiveReadMarking {
    typealias Snapshots = AsyncShareSequence<
        AsyncMapSyncSequence<
            AsyncDistinctBySequence<
                AsyncScanSequence<
                    AsyncScanSequence<
                        AsyncCombineLatestStatesSequence<TableFacts, RefreshReport>, AnswerPairing,
                        PairedFacts
                    >, SnapshotComposer, ComposedSnapshot
                >
            >, QuerySnapshot
        >
    >

    struct Entry: Sendable {
        let query: QueryDescription
        let refresher: Refresher
        let snapshots: Snapshots

        /// Whether anybody reads it: the share's readers are the one count of who does.
        var isRead: Bool { snapshots.readerCount > 0 }
    }

    struct State {
        /// Every read made and not yet forgotten; those no longer read are dropped when a new
        /// one is made and the entries have doubled since the last sweep.
        var entries: [String: Entry] = [:]
        var sweepAt = 64
        var closed = false

        /// The entries being read now.
        var read: some Sequence<Entry> { entries.values.lazy.filter(\.isRead) }

        /// Forgets the entries nobody reads, when they may have piled up.
        mutating func sweep() {
            guard entries.count >= sweepAt else { return }
            entries = entries.filter { $0.value.isRead }
            sweepAt = max(64, entries.count * 2)
        }
    }

    /// The entries (internal for the tests' hooks, `LiveReadsTestHooks.swift`).
    let state = Mutex(State())

    /// A new reader of the live read of `query`, making the read (with `refresher()`) when
    /// nobody reads it; `nil` once closed. The reader is counted from now until it is dropped,
    /// cancelled or finished, so the read is never ended between the join and its first value.
    func join(
        _ query: QueryDescription, facts: StateBroadcast<TableFacts, Never>, primaryKeys: PrimaryKeys,
        expiry: ListExpiry? = nil, refresher makeRefresher: (_ refreshID: String) -> Refresher
    ) -> Snapshots.AsyncIterator? {
        let key = query.canonicalKey
        return state.withLock { state -> Snapshots.AsyncIterator? in
            guard !state.closed else { return nil }
            // Registered under the lock: a read with a reader is never taken for one without.
            if let entry = state.entries[key], entry.isRead { return entry.snapshots.makeAsyncIterator() }
            state.sweep()
            // Each run of the read names its refresh apart from earlier runs of the same query.
            let refreshID = key + "#" + UUID().uuidString
            let refresher = makeRefresher(refreshID)
            let snapshots = Self.pipeline(
                query, facts: facts, primaryKeys: primaryKeys, refreshID: refreshID, refresher: refresher,
                expiry: expiry)
            state.entries[key] = Entry(query: query, refresher: refresher, snapshots: snapshots)
            return snapshots.makeAsyncIterator()
        }
    }

    /// The canonical keys of the live reads being read now: lists an eviction must keep.
    var keys: Set<String> {
        state.withLock { Set($0.read.map(\.query.canonicalKey)) }
    }

    /// The queries of the live reads of `table` being read (`nil`: every table's).
    func queries(of table: TableID? = nil) -> [QueryDescription] {
        state.withLock { state in
            state.read.map(\.query).filter { table == nil || TableID($0) == table }
        }
    }

    /// Marks the refreshes of `table`'s live reads stale (`nil`: every table's).
    func markStale(table: TableID?) {
        let refreshers = state.withLock { state in
            state.read.filter { table == nil || TableID($0.query) == table }.map(\.refresher)
        }
        for refresher in refreshers { refresher.markStale() }
    }

    /// Asks every live read waiting on its retry schedule to try now (see
    /// ``Refresher/tryNow()``).
    func tryNow() {
        let refreshers = state.withLock { state in state.read.map(\.refresher) }
        for refresher in refreshers { refresher.tryNow() }
    }

    /// Marks the refreshes of the live reads of `keys` stale.
    func markStale(keys: Set<String>) {
        guard !keys.isEmpty else { return }
        let refreshers = state.withLock { state in
            keys.compactMap { state.entries[$0] }.filter(\.isRead).map(\.refresher)
        }
        for refresher in refreshers { refresher.markStale() }
    }

    /// Ends every live read: refreshes stop, readers finish; later joins get `nil`.
    func close() async {
        let entries = state.withLock { state in
            state.closed = true
            defer { state.entries = [:] }
            return Array(state.entries.values)
        }
        for entry in entries {
            await entry.snapshots.close()
            entry.refresher.finish()
        }
    }

    /// How many times a woken live read yields before it composes: writers queueing writes at
    /// once are then composed as one snapshot, not one per write (see the README's performance
    /// notes for the figures).
    static let settleYields = 64

    /// The pipeline of one live read: the table's facts (those that may reach the read, see
    /// ``ReachHint``) and the refresh's reports, paired (``AnswerPairing``), composed
    /// (``SnapshotComposer``), de-duplicated and shared. No stage writes back into another: a
    /// synced write the list cannot show without a fetch is found where it settles
    /// (`Tables.listsDueForFetch`), which marks the refresh stale from outside.
    private static func pipeline(
        _ query: QueryDescription, facts: StateBroadcast<TableFacts, Never>, primaryKeys: PrimaryKeys,
        refreshID: String, refresher: Refresher, expiry: ListExpiry?
    ) -> Snapshots {
        let pairing = AnswerPairing(
            key: query.canonicalKey, startAnswers: facts.value.answers, refreshID: refreshID)
        let composer = SnapshotComposer(
            query: query, primaryKeys: primaryKeys, startAnswers: facts.value.answers)
        let hint = ReachHint(query: query, primaryKeys: primaryKeys)
        return combineLatest(
            facts, refresher.states, firstMatters: { hint.mayChange($0) }, settleYields: Self.settleYields
        )
        .scan(pairing) { pairing, input in pairing.pair(input.0, input.1) }
        .scan(composer) { composer, paired in composer.compose(paired) }
        .distinct { shown, next in shown.shows(next) }
        .mapSync(\.snapshot)
        .share(alongside: {
            // The refresh, and the timer that ends the list's time to live, if it has one.
            await withDiscardingTaskGroup { group in
                group.addTask { await refresher.run() }
                if let expiry { group.addTask { await expiry.run() } }
            }
        })
    }
}
