import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The stand-in server's `Content-Range` on writes, as PostgREST's `Response.hs` gives it: every
/// insert, update and delete answer carries one (a proxy's bare 2xx does not), an update's names
/// the rows it reached, and the total is there only when counted.
@Suite("In-memory server: a write's Content-Range")
struct InMemoryPostgRESTRangeTests {
    private static let base = "https://example.invalid/rest/v1/tasks"

    private static func request(
        _ method: HTTPMethod, _ query: String = "", body: String? = nil, prefer: String? = nil
    ) -> HTTPRequest {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let prefer { headers["Prefer"] = prefer }
        return HTTPRequest(
            method: method, url: URL(string: base + query)!, headers: headers,
            body: body.map { Data($0.utf8) })
    }

    private static func range(_ request: HTTPRequest, on server: InMemoryPostgREST) async throws -> String? {
        try await server.send(request).headers["Content-Range"]
    }

    @Test("insert, update and delete answer with PostgREST's ranges, counted or not")
    func writeRanges() async throws {
        let server = InMemoryPostgREST(tables: ["tasks": []])
        let insert = #"[{"id":1,"done":false},{"id":2,"done":false},{"id":3,"done":true}]"#
        #expect(try await Self.range(Self.request(.post, body: insert), on: server) == "*/*")
        let more = #"[{"id":4,"done":false}]"#
        #expect(
            try await Self.range(Self.request(.post, body: more, prefer: "count=exact"), on: server) == "*/1")
        let update = Self.request(.patch, "?done=eq.false", body: #"{"title":"x"}"#)
        #expect(try await Self.range(update, on: server) == "0-2/*")
        let counted = Self.request(.patch, "?done=eq.false", body: #"{"title":"y"}"#, prefer: "count=exact")
        #expect(try await Self.range(counted, on: server) == "0-2/3")
        let none = Self.request(.patch, "?id=eq.99", body: #"{"title":"z"}"#)
        #expect(try await Self.range(none, on: server) == "*/*")
        let noneCounted = Self.request(.patch, "?id=eq.99", body: #"{"title":"z"}"#, prefer: "count=exact")
        #expect(try await Self.range(noneCounted, on: server) == "*/0")
        #expect(try await Self.range(Self.request(.delete, "?id=eq.1"), on: server) == "*/*")
        let deleteCounted = Self.request(.delete, "?done=eq.false", prefer: "count=exact")
        #expect(try await Self.range(deleteCounted, on: server) == "*/2")
    }
}
