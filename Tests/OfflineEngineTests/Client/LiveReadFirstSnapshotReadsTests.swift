import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// What a live read's first snapshot reads from the store (issue 28): its own cached list and its
/// table's replay log, counted row by row by the store's read hooks, however many other lists of
/// the same table or of other tables the cache holds and whatever other tables have replayed.
@Suite("A live read's first snapshot reads its own list", .timeLimit(.minutes(10)))
struct LiveReadFirstSnapshotReadsTests {
    private static let tasks: [Row] = [
        ["id": 1, "done": false, "title": "a"], ["id": 2, "done": true, "title": "b"],
        ["id": 3, "done": false, "title": "c"],
    ]

    /// A store in `folder` holding four cached lists of tasks and two of tags, and one replayed
    /// write of each table whose lists were not fetched since (so both replay logs hold one).
    private static func fillCache(in folder: URL) async throws -> InMemoryPostgREST {
        let fixture = try await ClientFixture(
            tables: ["tasks": tasks, "tags": [["id": 1, "name": "x"]]], storage: .directory(folder))
        for done in [false, true] {
            _ = try await fixture.client.from("tasks").select().eq("done", value: done).fetch()
        }
        _ = try await fixture.client.from("tasks").select().eq("title", value: "a").fetch()
        _ = try await fixture.client.from("tasks").select("id").fetch()
        _ = try await fixture.client.from("tags").select().fetch()
        _ = try await fixture.client.from("tags").select("id").fetch()
        // Queued, then replayed: each joins its table's replay log.
        try await fixture.client.insertOffline(["id": 4, "done": false, "title": "d"])
        try await fixture.client.insertOffline(["id": 2, "name": "y"], into: "tags")
        await fixture.client.enableNetwork()
        try await withTimeout(30) { try await fixture.client.waitForPendingWrites() }
        await fixture.client.close()
        return fixture.server
    }

    @Test("the first snapshot reads one list row and the replayed writes of its own table, nothing else")
    func firstSnapshotReadsOwnListAndLog() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let server = try await Self.fillCache(in: folder)
            let fixture = try await ClientFixture(
                storage: .directory(folder), signedInAs: "user-1", server: server, probe: ServerProbe())
            await fixture.client.disableNetwork()
            let store = fixture.client.store
            // The cache's launch pass (its own reads) is over before the read starts.
            _ = try await fixture.client.cacheSize()
            let read = fixture.client.from("tasks").select().eq("done", value: false)
            store.readHooks.start()
            let first = try await firstValue(of: read.snapshots()) { _ in true }
            let reads = store.readHooks.stop()
            #expect(first.isFromCache)
            #expect(Set(first.column("id")) == ["1", "3", "4"])
            let lists = reads.filter { $0.sql.contains("FROM lists") }
            let logs = reads.filter { $0.sql.contains("FROM replay_log") }
            #expect(lists.map(\.rows).reduce(0, +) == 1, "\(reads)")
            #expect(logs.map(\.rows).reduce(0, +) == 1, "\(reads)")
            let others = reads.filter { !lists.contains($0) && !logs.contains($0) && $0.rows > 0 }
            #expect(others.isEmpty, "\(others)")
            await fixture.client.close()
        }
    }
}
