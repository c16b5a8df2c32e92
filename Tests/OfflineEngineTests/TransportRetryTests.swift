import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// A transport that answers from a script and records what it was sent.
private final class ScriptedTransport: HTTPTransport {
    private let state: Mutex<(script: [Result<HTTPResponse, any Error>], sent: [HTTPRequest])>

    init(_ script: [Result<HTTPResponse, any Error>]) {
        state = Mutex((script, []))
    }

    var sent: [HTTPRequest] { state.withLock { $0.sent } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let next = state.withLock { state -> Result<HTTPResponse, any Error> in
            state.sent.append(request)
            return state.script.isEmpty ? .success(HTTPResponse(status: 200)) : state.script.removeFirst()
        }
        return try next.get()
    }
}

private func status(_ code: Int, headers: HTTPHeaders = HTTPHeaders()) -> Result<HTTPResponse, any Error> {
    .success(HTTPResponse(status: code, headers: headers))
}

private let offline: Result<HTTPResponse, any Error> = .failure(TransportError(kind: .offline))

private func request(_ method: HTTPMethod, retriesTransportFailures: Bool = true) -> HTTPRequest {
    HTTPRequest(
        method: method, url: URL(string: "https://example.test/rest/v1/tasks")!,
        retriesTransportFailures: retriesTransportFailures)
}

/// Sends `request`, advancing the clock through `retries` waits, and returns the result.
private func run(
    _ request: HTTPRequest, script: [Result<HTTPResponse, any Error>], retries: Int
) async -> (result: Result<HTTPResponse, any Error>, clock: ManualClock, transport: ScriptedTransport) {
    let clock = ManualClock()
    let transport = ScriptedTransport(script)
    let retrying = RetryingTransport(base: transport, clock: clock)
    let task = Task { try await retrying.send(request) }
    for _ in 0..<retries {
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(60))
    }
    let result = await task.result
    return (result, clock, transport)
}

@Suite("Read retries", .timeLimit(.minutes(10)))
struct TransportRetryTests {
    @Test("a GET answered 503 four times is tried after 1 s, 2 s and 4 s, marked X-Retry-Count")
    func schedule() async throws {
        let (result, clock, transport) = await run(
            request(.get), script: [status(503), status(503), status(503), status(503)], retries: 3)
        #expect(try result.get().status == 503)
        #expect(clock.sleepLog == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(transport.sent.map { $0.headers["X-Retry-Count"] } == [nil, "1", "2", "3"])
    }

    @Test("a 520 then success stops retrying at the success")
    func recovers() async throws {
        let (result, clock, transport) = await run(
            request(.head), script: [status(520), status(520), status(200)], retries: 2)
        #expect(try result.get().status == 200)
        #expect(clock.sleepLog == [.seconds(1), .seconds(2)])
        #expect(transport.sent.count == 3)
    }

    @Test("a transport failure on a GET is retried unless the request opts out")
    func transportFailures() async throws {
        let retried = await run(request(.get), script: [offline, status(200)], retries: 1)
        #expect(try retried.result.get().status == 200)
        #expect(retried.clock.sleepLog == [.seconds(1)])

        let optedOut = await run(
            request(.get, retriesTransportFailures: false), script: [offline, status(200)], retries: 0)
        #expect(throws: TransportError.self) { try optedOut.result.get() }
        #expect(optedOut.transport.sent.count == 1)
        #expect(optedOut.clock.sleepLog.isEmpty)
    }

    @Test("a write is never retried, whatever the failure", arguments: [HTTPMethod.post, .patch, .delete])
    func writesNotRetried(method: HTTPMethod) async throws {
        let unavailable = await run(request(method), script: [status(503), status(200)], retries: 0)
        #expect(try unavailable.result.get().status == 503)
        #expect(unavailable.transport.sent.count == 1)
        let failed = await run(request(method), script: [offline, status(200)], retries: 0)
        #expect(throws: TransportError.self) { try failed.result.get() }
        #expect(failed.transport.sent.count == 1)
        #expect(unavailable.clock.sleepLog.isEmpty && failed.clock.sleepLog.isEmpty)
    }

    @Test("a GET answered 500 (or 404) is not retried", arguments: [500, 404, 429])
    func otherStatusesNotRetried(code: Int) async throws {
        let (result, clock, transport) = await run(request(.get), script: [status(code)], retries: 0)
        #expect(try result.get().status == code)
        #expect(transport.sent.count == 1)
        #expect(clock.sleepLog.isEmpty)
    }

    @Test("cancellation and other errors are not retried")
    func cancellationNotRetried() async throws {
        let cancelled = await run(request(.get), script: [.failure(CancellationError())], retries: 0)
        #expect(throws: CancellationError.self) { try cancelled.result.get() }
        let decoding = await run(
            request(.get), script: [.failure(JSONText.MalformedJSON(reason: "x"))], retries: 0)
        #expect(throws: JSONText.MalformedJSON.self) { try decoding.result.get() }
        #expect(cancelled.transport.sent.count == 1 && decoding.transport.sent.count == 1)
    }

    @Test("a 503 with Retry-After waits that long, capped at 30 s")
    func retryAfter() async throws {
        let (result, clock, _) = await run(
            request(.get),
            script: [
                status(503, headers: ["Retry-After": "3"]), status(503, headers: ["retry-after": "600"]),
            ],
            retries: 2)
        #expect(try result.get().status == 200)
        #expect(clock.sleepLog == [.seconds(3), .seconds(30)])
    }

    @Test("cancelling a read during its wait ends it with CancellationError")
    func cancelDuringWait() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([status(503), status(200)])
        let retrying = RetryingTransport(base: transport, clock: clock)
        let task = Task { try await retrying.send(request(.get)) }
        await clock.sleepers(atLeast: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.sent.count == 1)
    }

    @Test("the backoff doubles from 1 s and stops at 30 s")
    func backoff() {
        let policy = ReadRetryPolicy()
        #expect((0..<7).map(policy.backoff) == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) })
    }
}
