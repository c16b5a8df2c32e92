import Foundation

/// Sends reads to the server: each reads a tick before its request leaves (the tick an answer
/// is judged by), and goes out with transport retries off, so a dead network shows at once.
struct ServerReads: Sendable {
    let endpoint: RESTEndpoint
    let transport: RetryingTransport
    let state: EngineState

    /// The rows of `query` with the session current now, and the tick read before the request.
    func fetch(_ query: QueryDescription) async throws -> ([Row], Int64) {
        let tick = try await state.marks.nextTick()
        return (try await send(query, accessToken: state.session.value.authSession?.accessToken), tick)
    }

    /// The rows of `query` sent with a token fixed by the caller (a write's own session).
    func fetch(_ query: QueryDescription, accessToken token: String?) async throws -> [Row] {
        try await send(query, accessToken: token)
    }

    private func send(_ query: QueryDescription, accessToken token: String?) async throws -> [Row] {
        var request = try RequestBuilder.request(for: query, endpoint: endpoint, accessToken: token)
        request.retriesTransportFailures = false
        let response = try await transport.send(request)
        return try ResponseDecoding.rows(from: response)
    }
}
