import Foundation
import Testing

@testable import OfflineEngine

@Suite("No answer that is not PostgREST's replaces cached rows", .timeLimit(.minutes(10)))
struct ClientReadAnswerTests {
    private static let pages: [HTTPResponse] = [
        HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data()),
        HTTPResponse(status: 200, body: Data()),
        HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("[]".utf8)),
    ]

    @Test("a 200 with an empty body or a page that is not JSON never empties a cached list", arguments: pages)
    func portalPageKeepsCachedRows(page: HTTPResponse) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        _ = try await fixture.client.from("tasks").select().fetch()
        fixture.probe.answer { request in request.method == .get ? page : nil }
        let once = try await fixture.client.from("tasks").select().fetch()
        #expect(once.rows == [["id": 1]])
        #expect(once.isFromCache)
        await fixture.client.close()
    }
}
