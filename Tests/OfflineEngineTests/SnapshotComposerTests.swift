import Foundation
import Testing

@testable import OfflineEngine

/// The pure composer of live reads: facts and refresh reports in, snapshots out.
@Suite("Composing a live read's snapshots", .timeLimit(.minutes(10)))
struct SnapshotComposerTests {
    private typealias F = OverlayFixture

    private static let list = F.list(rows: [["id": 1, "title": "a"]])
    private static var query: QueryDescription { list.query }
    private static var key: String { query.canonicalKey }

    /// Facts of the tasks table holding `list` (answered by `answer`) and `queued` writes.
    private static func facts(
        rows: [Row] = [["id": 1, "title": "a"]], answer: AnswerStamp? = nil, queued: WriteLog = WriteLog(),
        version: Int = 1, answers: Int = 0
    ) -> TableFacts {
        var facts = TableFacts(table: TableID(query), owner: "alice")
        facts.lists[key] = ListEntry(
            list: CachedList(query: query, rows: rows, fetchTick: 1),
            fetchedAt: Date(timeIntervalSince1970: 1),
            isStale: false, answer: answer)
        facts.queued = queued
        facts.version = version
        facts.answers = answers
        return facts
    }

    private static func composer(startAnswers: Int = 0) -> ComposedRead {
        ComposedRead(query: query, startAnswers: startAnswers)
    }

    @Test("the cached rows come first, from the device, while the refresh asks")
    func cachedFirst() {
        var composer = Self.composer()
        let first = composer.compose(Self.facts(), .starting).snapshot
        #expect(first.column("id") == ["1"])
        #expect(first.isFromCache && first.refresh == .refreshing && !first.hasPendingMutations)
    }

    @Test(
        "an answer an earlier run of the same query asked for is shown at once: this read's refresh never reports it"
    )
    func earlierRunsAnswer() {
        var composer = ComposedRead(query: Self.query, refreshID: Self.key + "#second")
        _ = composer.compose(Self.facts(), .starting)
        let answered = Self.facts(
            rows: [["id": 2, "title": "b"]], answer: AnswerStamp(serial: 1, refreshOf: Self.key + "#first"),
            version: 2, answers: 1)
        #expect(composer.compose(answered, .starting).snapshot.column("id") == ["2"])
    }

    @Test("while a new user's cache is read, a read shows no rows: none of the last user's, none partial")
    func newCacheBeingRead() {
        var composer = Self.composer()
        _ = composer.compose(Self.facts(), .starting)
        var waiting = TableFacts(table: TableID(Self.query), owner: "bob")
        waiting.awaitingLists = true
        waiting.version = 2
        let shown = composer.compose(waiting, .starting).snapshot
        #expect(shown.result == nil && shown.isFromCache && shown.pendingRowIDs.isEmpty)
        var bobs = Self.facts(rows: [["id": 7, "title": "b"]], version: 3)
        bobs.owner = "bob"
        #expect(composer.compose(bobs, .starting).snapshot.column("id") == ["7"])
    }

    @Test(
        "an answer of the read's own refresh waits for the report that carries it: rows and Idle in one snapshot"
    )
    func answerThenReport() {
        var composer = Self.composer()
        _ = composer.compose(Self.facts(), .starting)
        let answered = Self.facts(
            rows: [["id": 2, "title": "b"]], answer: AnswerStamp(serial: 1, refreshOf: Self.key), version: 2,
            answers: 1)
        let held = composer.compose(answered, .starting).snapshot
        #expect(held.column("id") == ["1"] && held.refresh == .refreshing)
        let both = composer.compose(answered, RefreshReport(state: .idle, answer: 1)).snapshot
        #expect(both.column("id") == ["2"] && both.refresh == .idle && !both.isFromCache)
    }

    @Test(
        "while an answer waits for its report, the replayed writes the shown list had not seen stay laid, though the answer retired them"
    )
    func heldAnswerKeepsReplayedWrites() {
        var composer = Self.composer()
        var before = Self.facts()
        let insert = Mutation(table: "tasks", operation: .insert, rows: [["id": 2, "title": "b"]])
        before.replayed = [ReplayEntry(tick: 2, mutation: insert)]
        let shown = composer.compose(before, .starting).snapshot
        #expect(shown.column("id") == ["1", "2"])
        // The answer holds the write, so the replay log retired it; its report has not come yet.
        var answered = Self.facts(
            rows: [["id": 1, "title": "a"], ["id": 2, "title": "b"]],
            answer: AnswerStamp(serial: 1, refreshOf: Self.key), version: 2, answers: 1)
        answered.replayed = []
        let held = composer.compose(answered, .starting).snapshot
        #expect(held.column("id") == ["1", "2"])
        let both = composer.compose(answered, RefreshReport(state: .idle, answer: 1)).snapshot
        #expect(both.column("id") == ["1", "2"] && both.refresh == .idle && !both.isFromCache)
    }

    @Test("a report that arrives before the facts holding its answer waits for them")
    func reportThenAnswer() {
        var composer = Self.composer()
        _ = composer.compose(Self.facts(), .starting)
        let early = composer.compose(Self.facts(), RefreshReport(state: .idle, answer: 1)).snapshot
        #expect(early.refresh == .refreshing && early.column("id") == ["1"])
        let answered = Self.facts(
            rows: [["id": 2, "title": "b"]], answer: AnswerStamp(serial: 1, refreshOf: Self.key), version: 2,
            answers: 1)
        let both = composer.compose(answered, RefreshReport(state: .idle, answer: 1)).snapshot
        #expect(both.column("id") == ["2"] && both.refresh == .idle)
    }

    @Test("an answer nobody's refresh asked for (a one-shot fetch) shows at once")
    func oneShotAnswerShowsAtOnce() {
        var composer = Self.composer()
        _ = composer.compose(Self.facts(), .starting)
        let fetched = Self.facts(
            rows: [["id": 3, "title": "c"]], answer: AnswerStamp(serial: 1, refreshOf: nil), version: 2,
            answers: 1)
        let shown = composer.compose(fetched, .starting).snapshot
        #expect(shown.column("id") == ["3"] && !shown.isFromCache)
    }

    @Test(
        "writes appended to the queue extend the fold: rows that changed say so, others compare as unchanged")
    func appendedWrites() {
        var composer = Self.composer()
        let empty = WriteLog()
        _ = composer.compose(Self.facts(queued: empty), .starting)
        let insert = F.write(.insert, rows: [["id": 9, "title": "new"]])
        let withInsert = empty.appending(insert)
        let grown = composer.compose(Self.facts(queued: withInsert), .starting)
        #expect(grown.rows == .changed)
        #expect(grown.snapshot.column("id") == ["1", "9"] && grown.snapshot.hasPendingMutations)
        // A write to a row outside the list lays nothing: the same rows, not compared again.
        let elsewhere = F.write(.delete, filters: [F.eq("id", "404")])
        let same = composer.compose(Self.facts(queued: withInsert.appending(elsewhere)), .starting)
        #expect(same.rows == .unchanged)
        #expect(same.snapshot.column("id") == ["1", "9"])
    }

    @Test("another user's queued writes are never laid")
    func otherUsersWrites() {
        var composer = Self.composer()
        let theirs = WriteLog().appending(F.write(.insert, rows: [["id": 5]], owner: "bob"))
        let snapshot = composer.compose(Self.facts(queued: theirs), .starting).snapshot
        #expect(snapshot.column("id") == ["1"] && !snapshot.hasPendingMutations)
    }

    @Test("the last snapshot shown is compared with the next only where the composer cannot tell")
    func showsComparesOnlyWhenUnknown() {
        var composer = Self.composer()
        let first = composer.compose(Self.facts(), .starting)
        var changed = first
        changed.rows = .changed
        #expect(!first.shows(changed))
        var unknown = first
        unknown.rows = .unknown
        #expect(first.shows(unknown))
        var refreshed = first
        refreshed.rows = .unchanged
        refreshed.snapshot.refresh = .idle
        #expect(!first.shows(refreshed))
    }
}
