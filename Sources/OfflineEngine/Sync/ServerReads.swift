import Foundation

/// Sends reads to the server: each reads a tick before its request leaves (the tick an answer
/// is judged by), and goes out with transport retries off, so a dead network shows at once.
struct ServerReads: Sendable {
    let endpoint: RESTEndpoint
    let transport: RetryingTransport
    /// The session a read goes out with, the tick it reads, the events it sends.
    let outputs: StateOutputs
    let connectivity: ConnectivityMonitor
    let tokens: SessionTokens

    /// What the server answered a read: its rows (none for `HEAD`) and the count, if asked.
    struct Answer: Sendable {
        var rows: [Row]
        var count: Int?
    }

    /// The rows of `query` with the session current now, and the tick read before the request.
    func fetch(_ query: QueryDescription) async throws -> ([Row], Int64) {
        let (answer, tick) = try await fetch(query, options: ReadOptions())
        return (answer.rows, tick)
    }

    /// The answer to `query` asked with `options`, and the tick read before the request.
    func fetch(_ query: QueryDescription, options: ReadOptions) async throws -> (Answer, Int64) {
        // The tick before the token: a sign-in that follows (even one the token provider's answer
        // makes) refuses this answer.
        let tick = outputs.marks.nextTick()
        return (try await send(query, as: outputs.session.value.authSession, options: options), tick)
    }

    /// The rows of `query` sent with a write's ticket, as that write would be: only while the
    /// ticket holds (no sign-out, switch or clear since), checked right before it leaves.
    func fetch(_ query: QueryDescription, as ticket: SendTicket) async throws -> [Row] {
        try await send(
            query, as: ticket.session, options: ReadOptions(),
            mayLeave: { [outputs] in outputs.mayStillSend(ticket) }
        ).rows
    }

    private func send(
        _ query: QueryDescription, as session: AuthSession?, options: ReadOptions,
        mayLeave: () -> Bool = { true }
    ) async throws -> Answer {
        outputs.events.send(SyncEvent(.readSent, table: query.table))
        let sent = try await tokens.send(for: session, through: transport, mayLeave: mayLeave) { token in
            // The network may have gone down while the token was asked for: a read sends nothing
            // while it is known down (a refresh then pauses, a fetch answers from the cache).
            guard connectivity.current != .offline else { throw ClientError.offline }
            var request = try RequestBuilder.request(
                for: query, endpoint: endpoint, accessToken: token, options: options)
            request.retriesTransportFailures = false
            return request
        }
        guard let response = sent else { throw CancellationError() }
        guard options.head else {
            return Answer(
                rows: try ResponseDecoding.rows(from: response), count: ResponseDecoding.count(from: response)
            )
        }
        // A HEAD answer has no body: PostgREST's own carries its Content-Range.
        guard response.isSuccess else { throw ResponseDecoding.failure(for: response) }
        guard response.headers["Content-Range"] != nil else {
            throw UnexpectedResponseError(
                status: response.status, contentType: response.mediaType, reason: .notJSON)
        }
        return Answer(rows: [], count: ResponseDecoding.count(from: response))
    }
}
