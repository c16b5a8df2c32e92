import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Cache budget: least-recently-read eviction off the caller's task", .timeLimit(.minutes(10)))
struct CacheBudgetTests {
    /// A client whose cache may hold `budget` bytes, over a table of rows of about `padding` bytes.
    private static func fixture(
        budget: Int, rows: Int = 10, padding: Int = 50, storage: Storage = .inMemory
    ) async throws -> ClientFixture {
        try await ClientFixture(
            tables: [
                "items": paddedRows(rows, padding: padding), "other": paddedRows(rows, padding: padding),
            ],
            storage: storage, configure: { $0.cache.budget = budget })
    }

    /// A read of every item whose canonical key differs for each `n`.
    private static func read(_ client: OfflineClient, _ n: Int, table: String = "items") -> ReadQuery {
        client.from(table).select().neq("id", value: -n)
    }

    @Test("the budget holds after 10,000 list writes, and the newest lists stay")
    func budgetHoldsAfterTenThousandWrites() async throws {
        let budget = 100_000
        let fixture = try await Self.fixture(budget: budget)
        let client = fixture.client
        var largest = 0
        // Ten readers at a time, as screens of an app would: the writes share the store's commits.
        for batch in 0..<1_000 {
            try await withThrowingDiscardingTaskGroup { group in
                for n in batch * 10 + 1...batch * 10 + 10 {
                    group.addTask { _ = try await Self.read(client, n).fetch() }
                }
            }
            let n = (batch + 1) * 10
            if n % 1_000 == 0 {
                let size = try await client.cacheSize()
                largest = max(largest, size)
                #expect(size <= budget, "after \(n) list writes the cache holds \(size) bytes")
            }
        }
        #expect(largest > budget / 2, "the cache was filled: \(largest) bytes")
        let store = client.engine.state.store
        #expect(store.listBytes.value == (try await store.lists.totalBytes()))
        // The most recently written lists are the ones kept.
        #expect(
            try await store.lists(of: "user-1").list(key: Self.read(client, 10_000).query.canonicalKey) != nil
        )
        #expect(try await store.lists(of: "user-1").list(key: Self.read(client, 1).query.canonicalKey) == nil)
        await client.close()
    }

    @Test("eviction removes the least recently read list first: a list read again outlives a newer one")
    func leastRecentlyReadGoesFirst() async throws {
        let measuring = try await Self.fixture(budget: 10_000_000)
        _ = try await Self.read(measuring.client, 1).fetch()
        let perList = try await measuring.client.cacheSize()
        await measuring.client.close()
        // Room for three lists and a half: the fourth takes the cache over, and a pass brings
        // it to 90% of the budget, which three lists fit.
        let fixture = try await Self.fixture(budget: perList * 7 / 2)
        let client = fixture.client
        let store = client.engine.state.store
        for n in 1...3 { _ = try await Self.read(client, n).fetch() }
        // List 1 is read again (offline, from the cache): 2 is now the least recently read.
        await client.disableNetwork()
        #expect(try await Self.read(client, 1).fetch().isFromCache)
        await client.enableNetwork()
        _ = try await Self.read(client, 4).fetch()
        #expect(try await client.cacheSize() == perList * 3)
        var kept: [Int] = []
        for n in 1...4
        where try await store.lists(of: "user-1").list(key: Self.read(client, n).query.canonicalKey) != nil {
            kept.append(n)
        }
        #expect(kept == [1, 3, 4])
        // The client forgot the evicted list too: offline, nothing answers its read.
        await client.disableNetwork()
        await #expect(throws: (any Error).self) { try await Self.read(client, 2).fetch() }
        await client.close()
    }

    @Test("cacheSize reports the bytes of cached lists: each list's key and its rows as JSON")
    func cacheSizeCountsKeysAndRows() async throws {
        let fixture = try await Self.fixture(budget: 10_000_000)
        let client = fixture.client
        #expect(try await client.cacheSize() == 0)
        let query = Self.read(client, 1)
        _ = try await query.fetch()
        let rows = JSONText.data(.array(paddedRows(10, padding: 50).map(\.json)))
        #expect(try await client.cacheSize() == query.query.canonicalKey.utf8.count + rows.count)
        try await client.clearLocalData()
        #expect(try await client.cacheSize() == 0)
        await client.close()
    }
}
