import Foundation
import Streams
import Synchronization

/// The live reads being read, by the query's canonical key: one shared pipeline per query, as
/// GRDB shares one observation among its observers while they observe.
///
/// A read's snapshots are derived, never pushed: its table's facts combined with its refresh's
/// reports, composed (``SnapshotComposer``), de-duplicated and shared. The refresh runs as a
/// child of the shared iteration, so the last reader leaving ends it (structured concurrency).
/// An entry lives while callers hold it (``join(_:facts:primaryKeys:refresher:)`` and
/// ``leave(_:)``); the engine marks the refreshes of running reads stale through it. A read
/// whose query has a time to live runs a ``ListExpiry`` beside its refresh.
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
        var holders: Int
    }

    struct State {
        var entries: [String: Entry] = [:]
        var closed = false
    }

    /// The entries (internal for the tests' hooks, `LiveReadsTestHooks.swift`).
    let state = Mutex(State())

    /// Joins the live read of `query`, making it (with `refresher()`) for its first holder;
    /// `nil` once closed. Each join is followed by one ``leave(_:)``.
    func join(
        _ query: QueryDescription, facts: StateBroadcast<TableFacts, Never>, primaryKeys: PrimaryKeys,
        expiry: ListExpiry? = nil, refresher makeRefresher: (_ refreshID: String) -> Refresher
    ) -> Snapshots? {
        let key = query.canonicalKey
        return state.withLock { state -> Snapshots? in
            guard !state.closed else { return nil }
            if var entry = state.entries[key] {
                entry.holders += 1
                state.entries[key] = entry
                return entry.snapshots
            }
            // Each run of the read names its refresh apart from earlier runs of the same query.
            let refreshID = key + "#" + UUID().uuidString
            let refresher = makeRefresher(refreshID)
            let snapshots = Self.pipeline(
                query, facts: facts, primaryKeys: primaryKeys, refreshID: refreshID, refresher: refresher,
                expiry: expiry)
            state.entries[key] = Entry(query: query, refresher: refresher, snapshots: snapshots, holders: 1)
            return snapshots
        }
    }

    /// Leaves the live read of `key`; the last holder to leave forgets it.
    func leave(_ key: String) {
        state.withLock { state in
            guard var entry = state.entries[key] else { return }
            entry.holders -= 1
            state.entries[key] = entry.holders > 0 ? entry : nil
        }
    }

    /// The canonical keys of the live reads held now: lists an eviction must keep.
    var keys: Set<String> {
        state.withLock { Set($0.entries.keys) }
    }

    /// The queries of the live reads of `table` (`nil`: every table's).
    func queries(of table: TableID? = nil) -> [QueryDescription] {
        state.withLock { state in
            state.entries.values.map(\.query).filter { table == nil || TableID($0) == table }
        }
    }

    /// Marks the refreshes of `table`'s live reads stale (`nil`: every table's).
    func markStale(table: TableID?) {
        let refreshers = state.withLock { state in
            state.entries.values.filter { table == nil || TableID($0.query) == table }.map(\.refresher)
        }
        for refresher in refreshers { refresher.markStale() }
    }

    /// Asks every live read waiting on its retry schedule to try now (see
    /// ``Refresher/tryNow()``).
    func tryNow() {
        let refreshers = state.withLock { state in state.entries.values.map(\.refresher) }
        for refresher in refreshers { refresher.tryNow() }
    }

    /// Marks the refreshes of the live reads of `keys` stale.
    func markStale(keys: Set<String>) {
        guard !keys.isEmpty else { return }
        let refreshers = state.withLock { state in keys.compactMap { state.entries[$0]?.refresher } }
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
    /// (``SnapshotComposer``), de-duplicated and shared. A composition that finds a synced write
    /// the list cannot show without a fetch asks the refresh to fetch again.
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
        .scan(composer) { composer, paired in
            let composed = composer.compose(paired)
            if composed.fetchAgain { refresher.markStale() }
            return composed
        }
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
