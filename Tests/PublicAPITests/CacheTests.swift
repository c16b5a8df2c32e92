import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The catalog's and the README's cache snippets, run on the public API.
@Suite("Cache budget, public API only", .timeLimit(.minutes(10)))
struct CacheTests {
    @Test("evict(table:) and purge() remove cached lists, and cacheSize() follows")
    func removalSnippetsRun() async throws {
        let server = InMemoryPostgREST(tables: ["messages": [["id": 1, "text": "hi"]], "tasks": [["id": 1]]])
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key", clock: ManualClock(),
            transport: server)
        configuration.cache.budget = 1_000_000
        let client = try await OfflineClient(configuration: configuration)
        _ = try await client.from("messages").select().execute()
        _ = try await client.from("tasks").select().execute()
        #expect(try await client.cacheSize() > 0)
        try await removeCache(client)
        #expect(try await client.cacheSize() == 0)

        _ = try await client.from("tasks").select().execute()
        let bytes = try await readmeCacheBudget(&configuration, client: client)
        #expect(bytes > 0)
        #expect(configuration.cache.budget == 20_000_000)
        #expect(try await client.cacheSize() == 0)
        await client.close()
    }
}
