import Foundation
import OfflineEngine

// The catalog's "Shared devices" snippets, one function each, with the placeholders they name
// as parameters. Changes are marked "adapted".

/// "Overview": a cache per user, or the hand-over.
func sharedDevicesConfiguration(
    projectURL: URL, anonKey: String, appSupportURL: URL,
    transport: any HTTPTransport  // adapted: the test's server
) async throws -> OfflineClient {
    var configuration = Configuration(url: projectURL, apiKey: anonKey, storage: .directory(appSupportURL))
    configuration.transport = transport  // adapted
    configuration.sharing = .perUser  // the default; .handOver passes one cache on
    let client = try await OfflineClient(configuration: configuration)
    return client  // adapted
}

/// "Clearing one user's data".
func sharedDevicesClearOneUser(_ client: OfflineClient, anaUserID: String) async throws {
    // Ana leaves the clinic: her data goes, her colleagues' stays.
    try await client.clearLocalData(user: anaUserID)
}
