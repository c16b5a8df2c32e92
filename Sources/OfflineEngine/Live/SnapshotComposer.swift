import Foundation

/// Builds a live read's snapshots from its table's facts, paired with its refresh's reports
/// (``AnswerPairing``): pure, no `await`, run inside the read's shared iteration (`scan`).
///
/// It keeps the read's overlay as a fold (``OverlayFold``): while the facts change only by
/// writes appended to the queue, just those writes are laid; any other change lays anew.
struct SnapshotComposer: Sendable {
    let key: String
    let query: QueryDescription
    let primaryKeys: PrimaryKeys
    /// The newest answer written when the read started: later ones are the server's answers to
    /// this read (its rows are no longer only the device's).
    let startAnswers: Int

    private var shown: ListEntry?
    private var report = RefreshReport.starting
    private var fold: OverlayFold<FilterEvaluator>?
    private var foldVersion = -1
    private var foldOwner: String?
    private var foldQueued = WriteLog()
    /// The rows of the fold as last gathered.
    private var lastRows: QueryRows?
    /// The last composition, shown again while an answer waits for its report, or while the
    /// facts lack lists an UPDATE may need.
    private var last: ComposedSnapshot?
    /// The keys of the fold's rows that a laid queued write touches.
    private var marks: PendingMarks

    /// A composer for the live read of `query`, started when the newest answer was `startAnswers`.
    init(query: QueryDescription, primaryKeys: PrimaryKeys, startAnswers: Int) {
        self.query = query
        key = query.canonicalKey
        self.primaryKeys = primaryKeys
        self.startAnswers = startAnswers
        marks = PendingMarks(primaryKeys: primaryKeys)
    }

    /// The snapshot for paired facts and report.
    mutating func compose(_ paired: PairedFacts) -> ComposedSnapshot {
        switch paired {
        case .ready(let facts, let latest):
            report = latest
            return compose(facts)
        case .holding(let latest):
            report = latest
            return holding()
        }
    }

    /// While the read's own answer waits for its report: the last rows stand. The facts that
    /// changed under them may have retired the replayed writes the shown list had not seen (the
    /// answer holds them); laid again over the old rows they would vanish for a snapshot, so the
    /// report's facts lay the answer anew.
    private mutating func holding() -> ComposedSnapshot {
        fold = nil
        // The pairing stage holds only after it passed facts on, which always set `last`.
        guard var held = last else { return noRows() }
        held.snapshot.refresh = report.state
        held.rows = .unchanged
        last = held
        return held
    }

    /// The snapshot for the latest facts.
    private mutating func compose(_ facts: TableFacts) -> ComposedSnapshot {
        // The cache changed hands and its lists are being read: nothing of the last user's
        // rows stays on screen, and no snapshot shows the new user's writes without their list.
        if facts.awaitingLists { return waitingForNewCache() }
        // An UPDATE is queued while only some of the table's lists are held (they are being
        // read): the overlay could miss rows it moves in, so the last snapshot stands until then.
        if !facts.listsComplete, facts.queuedUpdates > 0, var held = last {
            held.rows = .unchanged
            return held
        }
        let composed = composeNow(facts)
        last = composed
        return composed
    }

    /// A snapshot with no rows yet (`result` is `nil`, as before a first read) while a new
    /// cache's lists are read; the facts after it are laid anew.
    private mutating func waitingForNewCache() -> ComposedSnapshot {
        (fold, shown, lastRows) = (nil, nil, nil)
        let composed = noRows()
        last = composed
        return composed
    }

    /// A snapshot with no rows yet (`result` is `nil`), from the device, in the report's state.
    private func noRows() -> ComposedSnapshot {
        let snapshot = QuerySnapshot(
            result: nil, isFromCache: true, fetchedAt: nil, hasPendingMutations: false,
            refresh: report.state)
        return ComposedSnapshot(snapshot: snapshot, rows: .unknown)
    }

    private mutating func composeNow(_ facts: TableFacts) -> ComposedSnapshot {
        let rebuild =
            fold == nil || facts.version != foldVersion || facts.owner != foldOwner
            || !facts.queued.extends(foldQueued)
        if rebuild { shown = facts.lists[key] }
        let (result, rows) = lay(facts, rebuild: rebuild)
        let hasRows = shown != nil || !result.rows.isEmpty
        let answered = shown?.answer.map { $0.serial > startAnswers } ?? false
        let snapshot = QuerySnapshot(
            result: hasRows ? QueryResult(rows: result.rows) : nil, isFromCache: !answered,
            fetchedAt: shown?.fetchedAt, hasPendingMutations: result.hasPendingMutations,
            refresh: report.state, pendingRowIDs: marks.ids)
        return ComposedSnapshot(snapshot: snapshot, rows: rows)
    }

    /// The rows with the writes laid: the fold extended by the writes queued since, or a new one;
    /// and how the rows compare with the previous composition's. The marks follow the same
    /// writes over the same rows.
    private mutating func lay(_ facts: TableFacts, rebuild: Bool) -> (OverlayResult, ComposedSnapshot.Rows) {
        defer {
            foldVersion = facts.version
            foldOwner = facts.owner
            foldQueued = facts.queued
        }
        if !rebuild, var extended = fold.take() {
            let added = facts.laidWrites(facts.queued.writes(after: foldQueued))
            // `nil`: a fold made before any UPDATE was laid left the rows outside the list out.
            if let changed = extended.extend(with: added) {
                // Unchanged rows are the ones shown last: not gathered again.
                if !changed, let rows = lastRows {
                    marks.extend(with: added, rowsOnlyJoined: true) { extended.holds(key: $0) }
                    fold = extended
                    return (extended.result(rows: rows), .unchanged)
                }
                let result = extended.gatherResult()
                let onlyJoined = lastRows.map(result.rows.extends) ?? false
                marks.extend(with: added, rowsOnlyJoined: onlyJoined) { extended.holds(key: $0) }
                fold = extended
                lastRows = result.rows
                return (result, .changed)
            }
        }
        let list = shown?.list ?? CachedList(query: query, rows: [], fetchTick: 0)
        let queued = facts.laidWrites(facts.queued.writes)
        let replayed = facts.unseenReplayed(after: list.fetchTick)
        let hasUpdates = (queued + replayed).contains { $0.operation == .update }
        // The other lists give an UPDATE rows to move in, and a written row its embeds of one row.
        let others =
            hasUpdates || OneRowEmbeds.mayEmbed(query.select)
            ? facts.lists(except: key) : []
        var made = OverlayFold<FilterEvaluator>(
            list: list, otherLists: others, primaryKeys: primaryKeys, replayed: replayed, queued: queued,
            related: facts.related)
        let result = made.gatherResult()
        marks.reset(queued, keepsTouched: made.laysUpdates) { made.holds(key: $0) }
        fold = made
        lastRows = result.rows
        return (result, .unknown)
    }
}

/// A composed snapshot and how its rows compare with the previous composition's.
struct ComposedSnapshot: Sendable {
    /// How the rows compare with those of the composition before.
    enum Rows: Sendable, Equatable {
        /// The same rows: only laid writes that changed nothing.
        case unchanged
        /// Different rows: a laid write changed them.
        case changed
        /// Laid anew: compare them to know.
        case unknown
    }

    var snapshot: QuerySnapshot
    var rows: Rows

    /// Whether `next` shows what `self` (the last snapshot shown) shows, comparing the rows
    /// only when the composer could not tell: a write appended at the end of a long list
    /// would otherwise cost a comparison of every row.
    func shows(_ next: ComposedSnapshot) -> Bool {
        switch next.rows {
        case .changed:
            return false
        case .unchanged:
            return snapshot.isFromCache == next.snapshot.isFromCache
                && snapshot.fetchedAt == next.snapshot.fetchedAt
                && snapshot.hasPendingMutations == next.snapshot.hasPendingMutations
                && snapshot.refresh == next.snapshot.refresh
                && (snapshot.result == nil) == (next.snapshot.result == nil)
                && snapshot.pendingRowIDs == next.snapshot.pendingRowIDs
        case .unknown:
            return snapshot == next.snapshot
        }
    }
}
