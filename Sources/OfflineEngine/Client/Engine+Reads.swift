import Foundation
import Streams

extension Engine {
    /// A new reader of the live read of `query`, making the read for the first reader; the
    /// reader leaves when dropped, cancelled or finished, and then calls ``readerLeft(_:)``.
    func attach(_ query: QueryDescription) async throws -> LiveReads.Snapshots.AsyncIterator {
        try await calls.underway {
            // In use from its load until the read holds it, so no eviction pass removes it between.
            try await listsInUse.using(query.canonicalKey) {
                let facts = try await state.facts(of: TableID(query), for: query.canonicalKey)
                guard
                    let reader = liveReads.join(
                        query, facts: facts, primaryKeys: primaryKeys,
                        expiry: expiry(of: query, facts: facts),
                        refresher: { makeRefresher(for: query, answering: $0) })
                else { throw ClientError.closed }
                store.lists.noteRead([query.canonicalKey])
                return reader
            }
        }
    }

    /// A reader of the live read of `key` left: its list counts as read until now.
    func readerLeft(_ key: String) {
        store.lists.noteRead([key])
    }

    /// The timer of the list's time to live, when the query has one.
    private func expiry(of query: QueryDescription, facts: StateBroadcast<TableFacts, Never>) -> ListExpiry? {
        guard let timeToLive = configuration.cache.timeToLive(query) else { return nil }
        return ListExpiry(
            key: query.canonicalKey, timeToLive: timeToLive, clock: configuration.clock, facts: facts,
            expire: { [weak state] serial in
                guard let state else { return }
                await CachedLists.expire(query, answer: serial, in: state)
            })
    }

    /// The refresh of a live read of `query`; its answers are stamped `answering` (see
    /// ``SnapshotComposer/refreshID``).
    private func makeRefresher(for query: QueryDescription, answering refreshID: String) -> Refresher {
        let session = outputs.session
        let settled = outputs.signals.sessionSettled
        var environment = RefreshEnvironment(
            clock: configuration.clock, connectivity: connectivity,
            sessionRestoring: { session.value == .restoring },
            sessionSettled: { settled.stream() },
            summarize: { error in ErrorWording.summary(of: error) })
        let events = outputs.events
        let table = query.table
        environment.stateChanged = {
            events.send(SyncEvent(.refreshChanged(SyncEvent.Refresh($0)), table: table))
        }
        // Weak: the state keeps the live reads, which keep this refresher.
        let reads = reads
        return Refresher(environment: environment) { [weak state, calls] in
            guard let state else { throw CancellationError() }
            return try await calls.underway {
                let (rows, tick) = try await reads.fetch(query)
                return try await Answers.apply(
                    rows, query: query, requestTick: tick, answering: refreshID, in: state)
            }
        }
    }

    /// Fetches once and returns the rows with the overlay; offline or failing, returns what the
    /// cache holds, and throws only when it holds nothing. The result says where the rows came
    /// from and whether a queued write changed them, as a snapshot does.
    func fetchOnce(_ query: QueryDescription) async throws -> FetchResult {
        try await fetchOnce(query, options: ReadOptions()).result
    }

    /// ``fetchOnce(_:)`` with a count and `HEAD` as `options` ask. The count is the server's, and
    /// is cached with the read's list (a `HEAD` read's list holds no rows: see
    /// ``ReadOptions/cachedList(of:)``); from the cache, it is the cached count moved by the writes
    /// the overlay can decide (``OverlayCount``), or for a read never counted, the rows the device
    /// shows when the read has no limit or range (else `nil`).
    func fetchOnce(_ query: QueryDescription, options: ReadOptions) async throws -> (
        result: FetchResult, count: Int?
    ) {
        let key = options.cachedList(of: query).canonicalKey
        return try await calls.underway {
            try await listsInUse.using(key) {
                let fetched = try await fetchOnceInUse(query, options: options)
                // An answer written counted its list as read in its own commit.
                if fetched.result.isFromCache { store.lists.noteRead([key]) }
                return fetched
            }
        }
    }

    /// How many times a one-shot read with nothing cached asks again when its answer is refused
    /// for being older than a change of its table.
    static let asksWithoutCache = 5

    /// Why a one-shot read whose answer was refused for good cannot be answered by the server:
    /// the client closed (the call ends as it would offline) or the local data was cleared while
    /// it was under way (the answer may carry the cleared session's token).
    private static func refusal(closed: Bool) -> ClientError {
        closed ? .offline : .cleared
    }

    /// ``fetchOnce(_:options:)`` with the query's list kept from eviction.
    private func fetchOnceInUse(_ query: QueryDescription, options: ReadOptions) async throws -> (
        result: FetchResult, count: Int?
    ) {
        let table = TableID(query)
        let listed = options.cachedList(of: query)
        let key = listed.canonicalKey
        try await CachedLists.load(of: table, in: state)
        await waitForSessionToSettle()
        var answered = false
        var count: Int?
        var failure: (any Error)?
        do {
            guard connectivity.current != .offline else { throw ClientError.offline }
            // An answer older than the table's last change (or than a new owner) is refused. The
            // cached rows answer instead; with none cached it is asked again, a few times (a
            // replay settling may move the mark during each). One refused for a clear or the
            // client's closing is not asked again: the cache answers, or the call says why not.
            for ask in 1...Self.asksWithoutCache {
                let (answer, tick) = try await reads.fetch(query, options: options)
                count = answer.count
                let outcome = try await Answers.apply(
                    answer.rows, query: listed, requestTick: tick, count: answer.count, in: state
                ).outcome
                answered = outcome == .applied
                guard case .refused(let askAgain) = outcome else { break }
                if !askAgain {
                    failure = await Self.refusal(closed: state.closed)
                } else if await state.currentFacts(of: table).lists[key] == nil {
                    if ask < Self.asksWithoutCache { continue }
                    failure = ClientError.notCached
                }
                break
            }
        } catch {
            failure = error
        }
        let facts = await state.currentFacts(of: table)
        // Neither the server nor the cache can answer: offline, say that nothing is saved for it
        // (not that the call is online only); a server's refusal says what the server said.
        if let failure, facts.lists[key] == nil {
            if case ClientError.offline? = failure as? ClientError { throw ClientError.notCached }
            throw failure
        }
        var composer = SnapshotComposer(query: listed, primaryKeys: primaryKeys, startAnswers: 0)
        let composed = composer.compose(.ready(facts, RefreshReport(state: .idle, answer: facts.answers)))
            .snapshot
        var pending = !options.head && composed.hasPendingMutations
        if !answered, options.count != nil,
            let cached = facts.cachedCount(
                of: key, isWhole: options.readsWholeList(query), primaryKeys: primaryKeys)
        {
            count = cached.count
            if options.head { pending = cached.moved }
        }
        let result = FetchResult(
            result: QueryResult(rows: options.head ? [] : composed.result?.rows ?? []),
            isFromCache: !answered,
            fetchedAt: facts.lists[key]?.fetchedAt, hasPendingMutations: pending)
        return (result, count)
    }

    // MARK: Derived streams

    /// The current user's pending writes to `table`, from the table's facts.
    func pendingMutations(of table: TableID) async throws -> some AsyncSequence<[PendingMutation], Never>
        & Sendable
    {
        let primaryKeys = primaryKeys
        return try await state.facts(of: table, for: nil).values()
            .mapSync { $0.pending(primaryKeys: primaryKeys) }
            .distinct()
    }

    /// How many writes of the current user wait, from the queue's facts.
    var pendingMutationCount: some AsyncSequence<Int, Never> & Sendable {
        outputs.queue.values().mapSync { $0.visibleCount }.distinct()
    }

    /// The client's sync status, from the network, the session, the queue's facts and the
    /// replay's.
    var syncStatus: some AsyncSequence<SyncStatus, any Error> & Sendable {
        combineLatest(
            combineLatest(connectivity.states(), outputs.session.values()), outputs.queue.values(),
            combineLatest(uploads.values(), feeds.values())
        )
        .mapSync { network, queue, uploadsAndFeeds in
            let (uploads, feedsDown) = uploadsAndFeeds
            return SyncStatus(
                connectivity: network.0, isUploading: uploads.isUploading, pendingCount: queue.visibleCount,
                oldestPendingAt: queue.visibleCount > 0 ? queue.oldest : nil,
                lastUploadError: uploads.lastError,
                lastSyncedAt: queue.lastSyncedAt,
                isWaitingForSession: network.1.isWaitingForToken || network.1 == .restoring,
                disconnectedFeeds: feedsDown)
        }
        .distinct()
    }

    /// The rejected writes the current user may see, from the rejected facts.
    var rejectedMutations: some AsyncSequence<[RejectedMutation], Never> & Sendable {
        outputs.rejected.facts.values().mapSync { $0.visible }.distinct()
    }
}
