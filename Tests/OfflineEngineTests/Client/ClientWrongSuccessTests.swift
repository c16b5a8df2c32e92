import Foundation
import Testing

@testable import OfflineEngine

/// A 2xx settles a write only when it is the answer PostgREST gives that request: an insert is
/// answered 201 (200 too for a merge upsert that only updated), an update or delete 204, or 200
/// when it asked for rows; a body only where rows were asked for, as JSON; and always with
/// PostgREST's `Content-Range`. Anything else (a proxy's empty 200, a portal's HTML 201, a bare
/// 201 or 204, a 204 where rows were asked for) keeps the write queued, tried again later.
@Suite("A wrong 2xx keeps the write queued", .timeLimit(.minutes(10)))
struct ClientWrongSuccessTests {
    /// One write and a 2xx PostgREST would never give it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let method: HTTPMethod
        let write: @Sendable (OfflineClient) async throws -> Void
        let answer: HTTPResponse
        var testDescription: String { name }
    }

    private static func body(_ text: String, type: String? = "application/json") -> HTTPResponse {
        var headers = HTTPHeaders()
        if let type { headers["Content-Type"] = type }
        return HTTPResponse(status: 200, headers: headers, body: Data(text.utf8))
    }

    private static func status(_ status: Int, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.status = status
        return response
    }

    private static let insert: @Sendable (OfflineClient) async throws -> Void = {
        _ = try await $0.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
    }
    private static let insertAskingRows: @Sendable (OfflineClient) async throws -> Void = {
        _ = try await $0.from("tasks").insert(["id": 2, "title": "b"] as Row).select().execute()
    }
    private static let update: @Sendable (OfflineClient) async throws -> Void = {
        _ = try await $0.from("tasks").update(["title": "c"] as Row).eq("id", value: 1).execute()
    }
    private static let delete: @Sendable (OfflineClient) async throws -> Void = {
        _ = try await $0.from("tasks").delete().eq("id", value: 1).execute()
    }
    private static let ignoringUpsert: @Sendable (OfflineClient) async throws -> Void = {
        _ = try await $0.from("tasks").upsert(["id": 2, "title": "b"] as Row, ignoreDuplicates: true)
            .execute()
    }

    /// A write answered with the status PostgREST would give it, bare: no `Content-Range`, which
    /// PostgREST always sends with a write it applied.
    private static func bare(
        _ status: Int, to kind: String, _ method: HTTPMethod,
        _ write: @escaping @Sendable (OfflineClient) async throws -> Void
    ) -> Case {
        Case(
            name: "\(kind) answered a bare \(status), without PostgREST's Content-Range", method: method,
            write: write, answer: HTTPResponse(status: status))
    }

    static let cases: [Case] = [
        Case(
            name: "insert asking for rows answered 200 with a portal's page", method: .post,
            write: insertAskingRows, answer: body("<html>Sign in", type: "text/html")),
        Case(
            name: "insert asking for rows answered 302 by a portal", method: .post, write: insertAskingRows,
            answer: HTTPResponse(status: 302, headers: ["Location": "https://portal.invalid/login"])),
        Case(
            name: "insert answered 200 with an empty body", method: .post, write: insert,
            answer: HTTPResponse(status: 200)),
        Case(
            name: "insert answered 201 with an HTML page", method: .post, write: insert,
            answer: status(201, body("<html>Sign in</html>", type: "text/html"))),
        Case(name: "insert answered 204", method: .post, write: insert, answer: HTTPResponse(status: 204)),
        bare(201, to: "insert", .post, insert),
        Case(
            name: "insert answered 201 with a file server's Content-Range", method: .post, write: insert,
            answer: HTTPResponse(status: 201, headers: ["Content-Range": "bytes 0-99/1000"])),
        Case(
            name: "insert asking for rows answered 204", method: .post, write: insertAskingRows,
            answer: HTTPResponse(status: 204, headers: ["Content-Range": "*/1"])),
        Case(
            name: "insert asking for rows answered 201 with an empty body", method: .post,
            write: insertAskingRows, answer: HTTPResponse(status: 201, headers: ["Content-Range": "*/1"])),
        Case(
            name: "insert asking for rows answered 200 with a JSON string", method: .post,
            write: insertAskingRows,
            answer: body("\"ok\"")),
        Case(
            name: "insert asking for rows answered 201 with rows as plain text", method: .post,
            write: insertAskingRows, answer: status(201, body(#"[{"id":2}]"#, type: "text/plain"))),
        Case(
            name: "insert asking for rows answered 201 with rows of no declared type", method: .post,
            write: insertAskingRows, answer: status(201, body(#"[{"id":2}]"#, type: nil))),
        Case(
            name: "insert answered 201 with a body it did not ask for", method: .post, write: insert,
            answer: status(201, body("[]"))),
        Case(
            name: "upsert ignoring duplicates answered 200", method: .post, write: ignoringUpsert,
            answer: HTTPResponse(status: 200)),
        Case(
            name: "update answered 200 with an empty body", method: .patch, write: update,
            answer: HTTPResponse(status: 200)),
        Case(name: "update answered 201", method: .patch, write: update, answer: HTTPResponse(status: 201)),
        bare(204, to: "update", .patch, update), bare(204, to: "delete", .delete, delete),
        Case(
            name: "delete answered 200 with an empty body", method: .delete, write: delete,
            answer: HTTPResponse(status: 200)),
        Case(
            name: "delete answered 200 with a JSON string", method: .delete, write: delete,
            answer: body("\"ok\"")),
    ]

    /// Answers the first request of `method` with `response`, then lets the server answer.
    private static func answerFirst(
        _ method: HTTPMethod, of fixture: ClientFixture, with response: HTTPResponse
    ) {
        let left = Turns(1)
        fixture.probe.answer { request in
            guard request.method == method, left.take() else { return nil }
            return response
        }
    }

    @Test("a replayed write answered with a 2xx PostgREST never gives it stays queued", arguments: cases)
    func replayKeepsWrongSuccess(_ wrong: Case) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        await fixture.client.disableNetwork()
        try await wrong.write(fixture.client)
        Self.answerFirst(wrong.method, of: fixture, with: wrong.answer)
        await fixture.client.enableNetwork()
        // Kept and sent again on the schedule; the wrong answer never settled it.
        try await eventually { [clock = fixture.clock] in
            if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(300)) }
            return fixture.writes.count >= 2
        }
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.count == 2)
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }

    @Test("a write sent at once answered with a 2xx PostgREST never gives it is queued", arguments: cases)
    func immediateQueuesWrongSuccess(_ wrong: Case) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let outcomes = AsyncLog<SyncEvent>()
        let watching = collect(fixture.client.events, into: outcomes)
        defer { watching.cancel() }
        Self.answerFirst(wrong.method, of: fixture, with: wrong.answer)
        try await wrong.write(fixture.client)
        // Not reported accepted by the wrong answer: queued, then replayed and settled.
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        try await eventually { fixture.writes.count >= 2 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        try await eventually { outcomes.values.contains { $0.kind == .writeAccepted } }
        #expect(outcomes.values.filter { $0.kind == .writeAccepted }.count == 1)
        await fixture.client.close()
    }

    static let batchAnswers: [HTTPResponse] = [
        HTTPResponse(status: 200), status(201, body("<html>Sign in</html>", type: "text/html")),
        HTTPResponse(status: 204), body("\"ok\""), HTTPResponse(status: 201),
    ]

    @Test("a batch answered with a 2xx PostgREST never gives it stays queued, whole", arguments: batchAnswers)
    func batchKeepsWrongSuccess(_ answer: HTTPResponse) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": []])
        await fixture.client.disableNetwork()
        for id in 1...3 {
            _ = try await fixture.client.from("tasks").insert(["id": .number(JSONNumber(id))] as Row)
                .execute()
        }
        Self.answerFirst(.post, of: fixture, with: answer)
        await fixture.client.enableNetwork()
        try await eventually { [clock = fixture.clock] in
            if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(300)) }
            return fixture.writes.count >= 2
        }
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.map(\.bodyRows.count) == [3, 3])
        #expect(await fixture.server.rows(of: "tasks").count == 3)
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }

    @Test("the 2xx PostgREST does give each write settles it once")
    func rightSuccessSettles() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        await fixture.client.disableNetwork()
        _ = try await fixture.client.from("tasks").upsert(["id": 1, "title": "m"] as Row).execute()
        _ = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row).select().execute()
        _ = try await fixture.client.from("tasks").update(["title": "c"] as Row).eq("id", value: 2).execute()
        _ = try await fixture.client.from("tasks").delete().eq("id", value: 2).select().execute()
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.count == 4)
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "title": "m"]])
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }
}
