import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Cache budget: pinned lists are never evicted", .timeLimit(.minutes(10)))
struct CachePinningTests {
    private static let tables = [
        "live": paddedRows(3, padding: 40), "queued": paddedRows(3, padding: 40),
        "replayed": paddedRows(3, padding: 40), "plain": paddedRows(3, padding: 40),
    ]

    private static func key(_ client: OfflineClient, _ table: String) -> String {
        client.from(table).select().query.canonicalKey
    }

    @Test("purge keeps the lists a live read shows and those behind queued or unretired replayed writes")
    func purgeKeepsPinnedLists() async throws {
        let fixture = try await ClientFixture(tables: Self.tables)
        let client = fixture.client
        let store = client.engine.state.store
        // A live read of `live`, held open.
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(client.from("live").select().snapshots(), into: log)
        _ = try await withTimeout(30) {
            var seen = log.values
            while !seen.contains(where: { $0.refresh == .idle && $0.result?.rows.count == 3 }) {
                try Task.checkCancellation()
                seen = try await log.values(atLeast: seen.count + 1)
            }
        }
        for table in ["queued", "replayed", "plain"] { _ = try await client.from(table).select().fetch() }
        // `replayed`: a write queued offline, then sent and accepted; its list was not fetched
        // since, so the write stays laid over it (the replay log).
        await client.disableNetwork()
        _ = try await client.from("replayed").insert(["id": 9, "body": "new"] as Row).execute()
        await client.enableNetwork()
        try await client.waitForPendingWrites()
        #expect(try await !store.replayLog.writes(table: "replayed").isEmpty)
        // `queued`: a write that waits in the queue.
        await client.disableNetwork()
        _ = try await client.from("queued").insert(["id": 9, "body": "new"] as Row).execute()

        let removed = try await client.purge()
        #expect(removed == 1)
        #expect(try await store.lists(of: "user-1").list(key: Self.key(client, "plain")) == nil)
        for table in ["live", "queued", "replayed"] {
            #expect(
                try await store.lists(of: "user-1").list(key: Self.key(client, table)) != nil,
                "\(table) stays")
        }
        // The pinned lists are still shown: the queued and replayed writes over their rows.
        #expect(try await client.from("queued").select().fetch().rows.count == 4)
        #expect(try await client.from("replayed").select().fetch().rows.count == 4)
        await #expect(throws: (any Error).self) { try await client.from("plain").select().fetch() }
        reader.cancel()
        await reader.value
        await client.close()
    }

    @Test("evict(table:) removes that table's lists only, and keeps one a live read shows")
    func evictTableRemovesOneTable() async throws {
        let fixture = try await ClientFixture(tables: Self.tables)
        let client = fixture.client
        let store = client.engine.state.store
        _ = try await client.from("plain").select().fetch()
        _ = try await client.from("plain").select("id").fetch()
        _ = try await client.from("queued").select().fetch()
        let shown = try await firstValue(of: client.from("plain").select("body").snapshots()) {
            $0.refresh == .idle && $0.result?.rows.count == 3
        }
        _ = shown
        // The read above has ended; hold another open.
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(client.from("plain").select("body").snapshots(), into: log)
        try await eventually {
            client.engine.liveReads.readers(of: client.from("plain").select("body").query.canonicalKey) == 1
        }
        #expect(try await client.evict(table: "plain") == 2)
        #expect(
            try await store.lists(of: "user-1").list(
                key: client.from("plain").select("body").query.canonicalKey) != nil)
        #expect(try await store.lists(of: "user-1").list(key: Self.key(client, "plain")) == nil)
        #expect(try await store.lists(of: "user-1").list(key: Self.key(client, "queued")) != nil)
        reader.cancel()
        await reader.value
        await client.close()
    }

    @Test("a launch with a lowered budget keeps the list behind a queued write")
    func launchPassKeepsQueuedTable() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let server = InMemoryPostgREST(tables: Self.tables)
            let first = try await ClientFixture(storage: .directory(folder), server: server)
            for n in 1...20 { _ = try await first.client.from("plain").select().neq("id", value: -n).fetch() }
            _ = try await first.client.from("queued").select().fetch()
            try await first.client.insertOffline(["id": 9, "body": "new"], into: "queued")
            await first.client.close()

            await server.setReachable(false)
            let second = try await ClientFixture(
                storage: .directory(folder), server: server, configure: { $0.cache.budget = 1 })
            let store = second.client.engine.state.store
            let queued = try #require(
                try await store.lists(of: "user-1").list(key: Self.key(second.client, "queued")))
            #expect(try await second.client.cacheSize() == (try await store.lists.totalBytes()))
            #expect(try await store.lists.totalBytes() < 1_000)
            #expect(queued.rows.count == 3)
            #expect(try await store.queue.all().count == 1)
            await second.client.close()
        }
    }
}
