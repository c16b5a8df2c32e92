import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// Runs one builder call on a fresh client (its own in-memory store, manual clock and stub
/// server, so tests run in parallel) and hands back the one request it sent.
enum Wire {
    /// The project URL the ported cases use.
    static let projectURL = URL(string: "https://example.supabase.co")!
    /// The API key every request carries.
    static let apiKey = "anon-key"

    /// The request `build` sent, and what it returned; a builder call must send exactly one.
    static func capture<Result>(
        answering server: StubPostgREST = StubPostgREST(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ build: (OfflineClient) async throws -> Result
    ) async throws -> (request: SentRequest, result: Result) {
        let recorder = RecordingTransport(wrapping: server)
        let client = try await OfflineClient(
            configuration: Configuration(
                url: projectURL, apiKey: apiKey, storage: .inMemory, clock: ManualClock(),
                transport: recorder))
        let result: Result
        do {
            result = try await build(client)
        } catch {
            await client.close()
            throw error
        }
        await client.close()
        let requests = recorder.requests
        try #require(requests.count == 1, "sent: \(requests)", sourceLocation: sourceLocation)
        return (try SentRequest(requests[0]), result)
    }

    /// The request `build` sent.
    static func request<Result>(
        answering server: StubPostgREST = StubPostgREST(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ build: (OfflineClient) async throws -> Result
    ) async throws -> SentRequest {
        try await capture(answering: server, sourceLocation: sourceLocation, build).request
    }
}
