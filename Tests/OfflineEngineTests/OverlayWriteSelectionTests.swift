import Foundation
import Testing

@testable import OfflineEngine

@Suite("Overlay: which writes apply", .timeLimit(.minutes(10)))
struct OverlayWriteSelectionTests {
    typealias F = OverlayFixture

    let list = F.list(rows: [["id": "a"]], fetchTick: 5)

    @Test("the current user's queued writes and owner-less ones apply, oldest first; another user's never")
    func ownersWrites() {
        let mine = F.write(.insert, rows: [["id": "m"]], owner: "alice")
        let nobodys = F.write(.insert, rows: [["id": "n"]], owner: nil)
        let theirs = F.write(.insert, rows: [["id": "t"]], owner: "bob")
        let rename = F.write(.update, rows: [["id": "m2"]], filters: [F.eq("id", "m")], owner: "alice")
        let queue = [mine, theirs, nobodys, rename]
        #expect(OverlayWrites.applying(queue, ownerID: "alice") == [mine, nobodys, rename])
        #expect(OverlayWrites.applying(queue, ownerID: nil) == [nobodys])
        let shown = TestOverlay().read(list, queue: queue, replayLog: [], ownerID: "alice")
        #expect(F.ids(shown.rows) == ["a", "m2", "n"])
    }

    @Test("a replayed write shows only in lists fetched before it was sent")
    func replayedWritesUnseen() {
        let entry = ReplayEntry(tick: 6, mutation: F.write(.insert, rows: [["id": "r"]]))
        let stale = TestOverlay().read(list, queue: [], replayLog: [entry], ownerID: "alice")
        var fresh = list
        fresh.fetchTick = 6
        let current = TestOverlay().read(fresh, queue: [], replayLog: [entry], ownerID: "alice")
        #expect(F.ids(stale.rows) == ["a", "r"])
        #expect(F.ids(current.rows) == ["a"])
    }

    @Test("replayed writes come before queued ones")
    func replayedFirst() {
        let entry = ReplayEntry(tick: 6, mutation: F.write(.insert, rows: [["id": "r", "title": "old"]]))
        let queued = F.write(.update, rows: [["title": "new"]], filters: [F.eq("id", "r")])
        let shown = TestOverlay().read(list, queue: [queued], replayLog: [entry], ownerID: "alice")
        #expect(shown.rows == [["id": "a"], ["id": "r", "title": "new"]])
    }

    @Test("a replayed write retires once every cached list of its table is fetched again after it")
    func replayedWritesRetire() {
        let entries = (1...4).map {
            ReplayEntry(tick: $0, mutation: F.write(.delete, filters: [F.eq("id", "a")]))
        }
        #expect(ReplayLog.remaining(entries, listFetchTicks: [2, 3]).map(\.tick) == [3, 4])
        #expect(ReplayLog.remaining(entries, listFetchTicks: [4, 4]).isEmpty)
        #expect(ReplayLog.remaining(entries, listFetchTicks: []).isEmpty)
    }

    @Test("a table keeps at most its newest 1,000 replayed writes")
    func replayCap() {
        let entries = (1...1_200).map {
            ReplayEntry(tick: $0, mutation: F.write(.insert, rows: [["id": .string("x\($0)")]]))
        }
        let kept = ReplayLog.remaining(entries.shuffled(), listFetchTicks: [0])
        #expect(kept.count == 1_000)
        #expect(kept.first?.tick == 201)
        #expect(kept.last?.tick == 1_200)
    }

    @Test("hasPendingMutations is true only when a queued write changed the list's rows")
    func pendingOnlyWhenChanged() {
        let open = F.list(filters: [F.eq("done", "false")], rows: [["id": "a", "done": false]])
        let elsewhere = F.write(.insert, rows: [["id": "n", "done": true]])
        let same = F.write(.upsert, rows: [["id": "a", "done": false]])
        let changing = F.write(.insert, rows: [["id": "m", "done": false]])
        #expect(!F.shown(open, [elsewhere, same]).hasPendingMutations)
        #expect(F.shown(open, [elsewhere, changing]).hasPendingMutations)
    }

    @Test("a replayed write changes the rows without counting as pending")
    func replayedNotPending() {
        let entry = ReplayEntry(tick: 6, mutation: F.write(.insert, rows: [["id": "r"]]))
        let shown = TestOverlay().read(list, queue: [], replayLog: [entry], ownerID: "alice")
        #expect(F.ids(shown.rows) == ["a", "r"])
        #expect(!shown.hasPendingMutations)
    }
}
