import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The stand-in server's filters where PostgreSQL's typing decides: an empty `in` list, and the
/// spellings a boolean column reads.
@Suite("In-memory server: filters as PostgreSQL types them")
struct InMemoryPostgRESTFilterTests {
    private static let rows: [Row] = [
        ["id": 1, "done": true], ["id": 2, "done": false], ["id": 3, "done": nil],
    ]

    private static func ids(_ query: String) async throws -> [Int] {
        let server = InMemoryPostgREST(tables: ["tasks": rows])
        let request = HTTPRequest(
            method: .get,
            url: URL(string: "https://example.invalid/rest/v1/tasks?select=id&order=id" + query)!,
            headers: [:], body: nil)
        let response = try await server.send(request)
        let decoded = try JSONDecoder().decode([[String: Int]].self, from: response.body)
        return decoded.compactMap { $0["id"] }
    }

    @Test("in.() matches no row and not.in.() every row, NULL included (NULL = ANY('{}') is false)")
    func emptyList() async throws {
        #expect(try await Self.ids("&done=in.()") == [])
        #expect(try await Self.ids("&done=not.in.()") == [1, 2, 3])
    }

    @Test("a boolean column reads t, yes, on and 1 as true, f, no, off and 0 as false")
    func booleanSpellings() async throws {
        for spelling in ["true", "t", "TRUE", "yes", "y", "on", "1"] {
            #expect(try await Self.ids("&done=eq.\(spelling)") == [1], "\(spelling)")
        }
        for spelling in ["false", "f", "no", "n", "off", "0"] {
            #expect(try await Self.ids("&done=eq.\(spelling)") == [2], "\(spelling)")
        }
    }
}
