import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// Each fault of the recording transport does what it says, and the log's wait ends on the
/// requests it waits for or on its timeout.
@Suite("Recording transport", .timeLimit(.minutes(10)))
struct RecordingTransportTests {
    private static let tasksURL = URL(string: "https://example.invalid/rest/v1/tasks")!

    private static let get = HTTPRequest(method: .get, url: tasksURL)

    private static func insert(id: Int) -> HTTPRequest {
        HTTPRequest(
            method: .post, url: tasksURL,
            headers: ["Content-Type": "application/json", "Prefer": "return=representation"],
            body: Data(#"[{"id":\#(id),"title":"t\#(id)"}]"#.utf8), retriesTransportFailures: false)
    }

    private let server = InMemoryPostgREST(tables: ["tasks": []])

    @Test("forwards and records every request in order")
    func recordsRequests() async throws {
        let transport = RecordingTransport(wrapping: server)
        let read = try await transport.send(Self.get)
        let write = try await transport.send(Self.insert(id: 1))
        #expect(read.status == 200)
        #expect(write.status == 201)
        #expect(transport.requests.map(\.method) == [.get, .post])
        #expect(await server.requestsReceived == 2)
    }

    @Test("a wait ends when enough matching requests arrived")
    func waitsForMatchingRequests() async throws {
        let transport = RecordingTransport(wrapping: server)
        async let writes = transport.requests(
            atLeast: 2, where: { $0.method == .post }, timeout: .seconds(30))
        _ = try await transport.send(Self.get)
        _ = try await transport.send(Self.insert(id: 1))
        _ = try await transport.send(Self.insert(id: 2))
        let seen = try await writes
        #expect(seen.count == 2)
        #expect(seen.allSatisfy { $0.method == .post })
    }

    @Test("a wait whose requests do not come throws TimedOut after its timeout on the given clock")
    func waitTimesOut() async throws {
        let transport = RecordingTransport(wrapping: server)
        let clock = ManualClock()
        let wait = Task {
            try await transport.requests(atLeast: 1, timeout: .seconds(5), clock: clock)
        }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(5))
        await #expect(throws: RecordingTransport.TimedOut.self) { try await wait.value }
    }

    @Test("unreachable: cannotConnect without reaching the server, until set back")
    func unreachable() async throws {
        let transport = RecordingTransport(wrapping: server)
        transport.setUnreachable(true)
        await #expect(throws: TransportError(kind: .cannotConnect)) { try await transport.send(Self.get) }
        #expect(await server.requestsReceived == 0)
        #expect(transport.requests.count == 1)
        transport.setUnreachable(false)
        #expect(try await transport.send(Self.get).status == 200)
        #expect(await server.requestsReceived == 1)
    }

    @Test("the next N requests get a 503 with a PostgREST JSON error, then the server answers")
    func serviceUnavailable() async throws {
        let transport = RecordingTransport(wrapping: server)
        transport.inject(.serviceUnavailable, count: 2)
        for _ in 0..<2 {
            let response = try await transport.send(Self.get)
            #expect(response.status == 503)
            #expect(response.mediaType == "application/json")
            let body = try JSONDecoder().decode([String: String?].self, from: response.body)
            #expect(body["code"] == "PGRST000")
            #expect(body["message"] != nil)
        }
        #expect(await server.requestsReceived == 0)
        #expect(try await transport.send(Self.get).status == 200)
    }

    @Test("520 with an HTML page, only for the requests the predicate picks")
    func htmlPage() async throws {
        let transport = RecordingTransport(wrapping: server)
        transport.inject(.htmlPage, where: { $0.method == .post })
        #expect(try await transport.send(Self.get).status == 200)
        let response = try await transport.send(Self.insert(id: 1))
        #expect(response.status == 520)
        #expect(response.mediaType == "text/html")
        #expect(String(decoding: response.body, as: UTF8.self).contains("<html>"))
        #expect(await server.rows(of: "tasks").isEmpty)
        #expect(try await transport.send(Self.insert(id: 1)).status == 201)
    }

    @Test("a delay holds the request on the clock until it is advanced")
    func delay() async throws {
        let transport = RecordingTransport(wrapping: server)
        let clock = ManualClock()
        transport.setDelay(.seconds(3), on: clock)
        let sent = Task { try await transport.send(Self.get) }
        await clock.sleepers(atLeast: 1)
        #expect(transport.requests.count == 1)
        #expect(await server.requestsReceived == 0)
        clock.advance(by: .seconds(3))
        #expect(try await sent.value.status == 200)
        #expect(await server.requestsReceived == 1)
        #expect(clock.sleepLog == [.seconds(3)])
    }

    @Test("a lost answer: the server applied the write, the caller gets connectionLost")
    func answerLost() async throws {
        let transport = RecordingTransport(wrapping: server)
        transport.inject(.answerLost, where: { $0.method == .post })
        await #expect(throws: TransportError(kind: .connectionLost)) {
            try await transport.send(Self.insert(id: 7))
        }
        let rows = await server.rows(of: "tasks")
        #expect(rows.map { $0["id"] ?? .null } == [7])
        #expect(try await transport.send(Self.insert(id: 8)).status == 201)
    }
}
