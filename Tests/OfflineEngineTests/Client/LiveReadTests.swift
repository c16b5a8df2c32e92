import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Live reads", .timeLimit(.minutes(10)))
struct LiveReadTests {
    @Test("two readers of one query both see every change")
    func twoReaders() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let query = fixture.client.from("tasks").select()
        let first = query.snapshots()
        let second = query.snapshots()
        _ = try await firstValue(of: first) { $0.refresh == .idle && $0.column("title") == ["a"] }
        _ = try await firstValue(of: second) { $0.refresh == .idle && $0.column("title") == ["a"] }
        _ = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
        _ = try await firstValue(of: first) { $0.column("title") == ["a", "b"] }
        _ = try await firstValue(of: second) { $0.column("title") == ["a", "b"] }
        await fixture.client.close()
    }

    @Test("cached rows come at once, from the cache with their fetch time, when the server is unreachable")
    func cachedRowsAtOnce() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture(
                tables: ["tasks": [["id": 1, "title": "a"]]], storage: .directory(folder))
            _ = try await first.client.from("tasks").select().fetch()
            await first.client.close()

            await first.server.setReachable(false)
            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: first.server, probe: ServerProbe())
            let snapshot = try await firstValue(of: second.client.from("tasks").select().snapshots()) { _ in
                true
            }
            #expect(snapshot.column("title") == ["a"])
            #expect(snapshot.isFromCache)
            #expect(snapshot.fetchedAt != nil)
            await second.client.close()
        }
    }

    @Test("a live read asks the server when it starts, even with rows cached")
    func fetchesWhenItStarts() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        _ = try await fixture.client.from("tasks").select().fetch()
        await fixture.server.setRows([["id": 1, "title": "a2"]], of: "tasks")
        let before = fixture.gets.count
        let snapshot = try await firstValue(of: fixture.client.from("tasks").select().snapshots()) {
            $0.column("title") == ["a2"]
        }
        #expect(!snapshot.isFromCache)
        #expect(fixture.gets.count == before + 1)
        await fixture.client.close()
    }

    @Test("a new snapshot comes on each change of rows, pending writes and refresh state")
    func snapshotPerChange() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        let stream = fixture.client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle && $0.column("title") == ["a"] }
        // Rows: a write sent at once is patched in.
        _ = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
        _ = try await firstValue(of: stream) { $0.column("title") == ["a", "b"] && !$0.hasPendingMutations }
        // Pending writes: a queued one.
        try await fixture.client.insertOffline(["id": 3, "title": "c"])
        _ = try await firstValue(of: stream) {
            $0.hasPendingMutations && $0.column("title") == ["a", "b", "c"]
        }
        // Refresh state: a new owner marks the rows stale; offline, the refresh pauses.
        try await fixture.client.signIn(ClientFixture.session("user-2"))
        _ = try await firstValue(of: stream) { $0.refresh == .paused }
        let seen = log.values
        #expect(seen.first?.refresh == .refreshing)
        #expect(seen.contains { $0.refresh == .idle && $0.column("title") == ["a"] })
        #expect(seen.contains { $0.column("title") == ["a", "b"] && !$0.hasPendingMutations })
        #expect(seen.contains { $0.hasPendingMutations })
        reader.cancel()
        await fixture.client.close()
    }

    @Test("consecutive equal snapshots are not sent")
    func equalSnapshotsDropped() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]], "notes": []])
        let stream = fixture.client.from("tasks").select().snapshots()
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(stream, into: log)
        _ = try await log.values(atLeast: 1)
        _ = try await firstValue(of: fixture.client.from("tasks").select().snapshots()) {
            $0.refresh == .idle
        }
        // Republishing with nothing changed: the same user signs in again, another table is written.
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        try await fixture.client.insertOffline(["id": 9], into: "notes")
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        // A real change ends the run.
        _ = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
        try await log.waitForLatest { $0.column("title") == ["a", "b"] }
        let seen = log.values
        for (earlier, later) in zip(seen, seen.dropFirst()) {
            #expect(earlier != later)
        }
        reader.cancel()
        await fixture.client.close()
    }

    @Test("readers of one query share one cached list and one refresh in flight")
    func readersShareOneRefresh() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let gate = fixture.probe.holdReads()
        let readers = (0..<3).map { _ in
            let log = AsyncLog<QuerySnapshot>()
            return (log, collect(fixture.client.from("tasks").select().snapshots(), into: log))
        }
        _ = try await gate.arrivals.values(atLeast: 1)
        let key = QueryDescription(schema: nil, table: "tasks", select: "*").canonicalKey
        try await eventually { fixture.client.liveReaders(of: key) == 3 }
        gate.open()
        for (log, _) in readers {
            try await log.waitForLatest { $0.refresh == .idle }
            #expect(log.values.last?.column("title") == ["a"])
        }
        #expect(fixture.gets.count == 1)
        #expect(
            try await fixture.client.store.lists(of: "user-1").all(table: "tasks").filter { $0.key == key }
                .count == 1)
        for (_, task) in readers { task.cancel() }
        await fixture.client.close()
    }

    @Test("cancelling the reader's task ends its refresh loop and leaves nothing running")
    func cancellingEndsRefresh() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        fixture.probe.failReads()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: AsyncLog())
        try await fixture.sleepers(atLeast: 1)
        reader.cancel()
        let key = fixture.client.from("tasks").select().query.canonicalKey
        try await eventually {
            fixture.client.liveReaders(of: key) == 0 && fixture.clock.sleeperCount == 0
        }
        let requests = fixture.probe.requests.count
        fixture.clock.advance(by: .seconds(120))
        // A one-shot read is the next request the server sees: nothing else went out.
        fixture.probe.answer(with: nil)
        _ = try await fixture.client.from("tasks").select().fetch()
        #expect(fixture.probe.requests.count == requests + 1)
        #expect(fixture.clock.sleeperCount == 0)
        await fixture.client.close()
    }

    @Test("fetch reads the server when it can, the cache when not, and throws when neither can answer")
    func oneShotFetch() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let fromServer = try await fixture.client.from("tasks").select().fetch()
        #expect(fromServer.rows.map { $0["title"] } == ["a"])
        #expect(fixture.gets.count == 1)

        await fixture.server.setRows([["id": 1, "title": "a"], ["id": 2, "title": "b"]], of: "tasks")
        await fixture.server.setReachable(false)
        let fromCache = try await fixture.client.from("tasks").select().fetch()
        #expect(fromCache.rows.map { $0["title"] } == ["a"])
        await #expect(throws: TransportError.self) {
            _ = try await fixture.client.from("tasks").select().eq("title", value: "b").fetch()
        }

        await fixture.server.setReachable(true)
        await fixture.client.disableNetwork()
        let offline = try await fixture.client.from("tasks").select().fetch()
        #expect(offline.rows.map { $0["title"] } == ["a"])
        // Nothing saved for this read: its own error, not the online-only one.
        await #expect(throws: ClientError.notCached) {
            _ = try await fixture.client.from("tasks").select().eq("title", value: "b").fetch()
        }
        #expect(
            ClientError.notCached.description.contains("Nothing is saved on this device for this read yet"))
        #expect(ClientError.notCached.description != ClientError.offline.description)
        await fixture.client.enableNetwork()
        let again = try await fixture.client.from("tasks").select().fetch()
        #expect(again.rows.map { $0["title"] } == ["a", "b"])
        await fixture.client.close()
    }

    @Test("a read with nothing cached has no result until the server answers or a queued write admits rows")
    func nothingCachedHasNoResult() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "done": false]]])
        await fixture.client.disableNetwork()
        let open = fixture.client.from("tasks").select().eq("done", value: false)
        let stream = open.snapshots()
        let paused = try await firstValue(of: stream) { $0.refresh == .paused }
        #expect(paused.result == nil)
        // A queued write its filter rejects leaves it empty; one it admits gives it rows.
        _ = try await fixture.client.from("tasks").insert(["id": 2, "done": true] as Row).execute()
        _ = try await fixture.client.from("tasks").insert(["id": 3, "done": false] as Row).execute()
        let pending = try await firstValue(of: stream) { $0.result != nil }
        #expect(pending.column("id") == ["3"])
        #expect(pending.hasPendingMutations)
        #expect(pending.fetchedAt == nil)
        await fixture.client.close()
    }
}
