import Foundation
import OfflineEngine

// The catalog's "Keeping the cache within a budget" snippets, compiled against the public API.

/// The configuration snippet.
func cacheConfiguration(projectURL: URL, anonKey: String, folder: URL) async throws -> OfflineClient {
    var configuration = Configuration(url: projectURL, apiKey: anonKey, storage: .directory(folder))
    configuration.cache.budget = 20_000_000  // 20 MB of cached lists
    configuration.cache.timeToLive = { query in
        // Rates change every few minutes; everything else is fresh until fetched again.
        query.table == "exchange_rates" ? .seconds(15 * 60) : nil
    }
    let client = try await OfflineClient(configuration: configuration)
    return client
}

/// The removal snippet.
func removeCache(_ client: OfflineClient) async throws {
    // After leaving a large channel: its messages are fetched again if read.
    try await client.evict(table: "messages")
    // Free what can be freed, for example on a memory or disk warning.
    let removed = try await client.purge()
    print("removed \(removed) cached lists; \(try await client.cacheSize()) bytes left")
}

/// The README's "Cache budget and time to live" snippet.
func readmeCacheBudget(_ configuration: inout Configuration, client: OfflineClient) async throws -> Int {
    configuration.cache.budget = 20_000_000
    configuration.cache.timeToLive = { $0.table == "exchange_rates" ? .seconds(15 * 60) : nil }
    let bytes = try await client.cacheSize()  // after the eviction that was due
    try await client.evict(table: "messages")  // that table's lists (pinned ones stay)
    try await client.purge()  // every list that may go, then the file shrinks
    return bytes
}
