import Foundation
import OfflineEngine
import OfflineEngineTesting

/// A client of `local` over real HTTP (`URLSessionTransport`), its store in memory, with the
/// end-to-end tables' keys.
func gatewayClient(_ local: LocalHTTPServer, primaryKeys: [String: [String]] = [:]) async throws
    -> OfflineClient
{
    try await OfflineClient(
        configuration: Configuration(
            url: local.baseURL, apiKey: "anon-key", storage: .inMemory,
            primaryKeys: ["tasks": ["id"]].merging(primaryKeys) { $1 }, transport: URLSessionTransport()))
}
