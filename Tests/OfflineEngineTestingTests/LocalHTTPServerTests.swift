import Foundation
import OfflineEngine
import Testing

@testable import OfflineEngineTesting

/// The local server reads HTTP/1.1 off real sockets and answers with its handler, so a client
/// goes through `URLSessionTransport` as an app does.
@Suite("Local HTTP server", .timeLimit(.minutes(10)))
struct LocalHTTPServerTests {
    @Test(
        "a client on URLSessionTransport: writes made offline replay in order once online, and a fetch returns the server's rows"
    )
    func clientOverHTTP() async throws {
        let backend = InMemoryPostgREST(tables: ["tasks": []], primaryKeys: ["tasks": ["id"]])
        try await LocalHTTPServer.serving(backend) { local in
            let client = try await OfflineClient(
                configuration: Configuration(
                    url: local.baseURL, apiKey: "anon", storage: .inMemory, primaryKeys: ["tasks": ["id"]],
                    transport: URLSessionTransport()))
            _ = try await client.from("tasks").insert(["id": 1, "title": "sent at once"] as Row).execute()
            await client.disableNetwork()
            for id in 2...4 {
                let row: Row = ["id": .number(JSONNumber(id)), "title": .string("queued \(id)")]
                _ = try await client.from("tasks").insert(row).execute()
            }
            await client.enableNetwork()
            for try await pending in client.pendingMutationCount() where pending == 0 { break }
            let fetched = try await client.from("tasks").select().order("id").fetch()
            #expect(await backend.rows(of: "tasks").map { $0["id"] } == [1, 2, 3, 4])
            #expect(fetched.rows.map { $0["id"] } == [1, 2, 3, 4])
            await client.close()
        }
    }

    @Test("a request is read once its head and Content-Length bytes are in, and not before")
    func readsWholeRequests() throws {
        let base = URL(string: "http://127.0.0.1:1")!
        let text =
            "POST /rest/v1/tasks?select=id HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nPrefer: a\r\n\r\n[{}]"
        let bytes = Array(text.utf8)
        #expect(HTTPWire.read(Array(bytes.dropLast(1)), base: base) == .incomplete)
        #expect(HTTPWire.read(Array(bytes.prefix(20)), base: base) == .incomplete)
        guard case .request(let request) = HTTPWire.read(bytes, base: base) else {
            Issue.record("not read")
            return
        }
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:1/rest/v1/tasks?select=id")
        #expect(request.headers["prefer"] == "a")
        #expect(request.body == Data("[{}]".utf8))
    }

    @Test("what is not a request this server reads is refused, never guessed at")
    func refusesMalformed() {
        let base = URL(string: "http://127.0.0.1:1")!
        for text in [
            "BREW /pot HTTP/1.1\r\n\r\n", "GET /x\r\n\r\n", "GET /x HTTP/1.1\r\nno colon\r\n\r\n",
            "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        ] {
            guard case .malformed = HTTPWire.read(Array(text.utf8), base: base) else {
                Issue.record("read as a request: \(text.debugDescription)")
                continue
            }
        }
    }

    @Test("an answer carries its status, headers and a Content-Length, and closes the connection")
    func writesAnswers() {
        let text = String(
            decoding: HTTPWire.bytes(
                of: HTTPResponse(status: 201, headers: ["Content-Range": "0-0/1"], body: Data("[]".utf8))),
            as: UTF8.self)
        #expect(
            text
                == "HTTP/1.1 201 Created\r\nContent-Range: 0-0/1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]"
        )
    }

    @Test(
        "a send cancelled while its answer is held ends at once with CancellationError (on Linux it is abandoned, never cancelled in URLSession)"
    )
    func cancelledSend() async throws {
        let backend = InMemoryPostgREST(tables: ["tasks": []])
        try await LocalHTTPServer.serving(backend) { local in
            let (arrived, arriving) = AsyncStream.makeStream(of: Void.self)
            local.inject(.delay(.seconds(8 * realTimeScale))) { _ in
                arriving.yield()
                return true
            }
            let request = HTTPRequest(
                method: .get, url: local.baseURL.appendingPathComponent("rest/v1/tasks"))
            let (outcome, waited) = await withTaskGroup(of: Result<HTTPResponse, any Error>.self) { group in
                group.addTask {
                    do { return .success(try await URLSessionTransport().send(request)) } catch {
                        return .failure(error)
                    }
                }
                for await _ in arrived { break }
                let cancelledAt = ContinuousClock.now
                group.cancelAll()
                let outcome = await group.next()!
                return (outcome, ContinuousClock.now - cancelledAt)
            }
            #expect(throws: CancellationError.self) { try outcome.get() }
            #expect(waited < .seconds(5 * realTimeScale), "the caller did not wait for the answer held 8 s")
        }
    }
}
