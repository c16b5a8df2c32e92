import Foundation
import Testing

@testable import OfflineEngine

/// Replay with the requests of several tables in flight at once (`tablesInFlight`): each
/// table's writes keep the queue's order; a refusal that overtaking may have caused is not a
/// rejection until the write is refused in order.
@Suite("Replay with tables in flight at once", .timeLimit(.minutes(10)))
struct ClientReplayOverlapTests {
    /// A client with the network off whose replay lets two tables' requests overlap.
    private static func offline(tables: [String]) async throws -> ClientFixture {
        let fixture = try await ClientFixture(
            tables: Dictionary(uniqueKeysWithValues: tables.map { ($0, [Row]()) })
        ) { $0.replayBatching = ReplayBatching(tablesInFlight: 2) }
        await fixture.client.disableNetwork()
        return fixture
    }

    @discardableResult
    private static func insert(_ row: Row, into table: String, on fixture: ClientFixture) async throws -> UUID
    {
        try #require(try await fixture.client.from(table).insert(row).execute().outcome.queuedID)
    }

    private static func isWrite(to table: String) -> @Sendable (HTTPRequest) -> Bool {
        { $0.method != .get && $0.url.path.hasSuffix("/" + table) }
    }

    private static func ids(_ requests: [HTTPRequest]) -> [[JSONValue?]] {
        requests.map { $0.bodyRows.map { $0["id"] } }
    }

    @Test("a table's request leaves while another table's is unanswered; each table keeps its order")
    func tablesOverlapInOrder() async throws {
        let fixture = try await Self.offline(tables: ["tasks", "notes"])
        try await Self.insert(["id": 1, "title": "a"], into: "tasks", on: fixture)
        try await Self.insert(["id": 2, "title": "b"], into: "tasks", on: fixture)
        try await Self.insert(["id": 3, "body": "c"], into: "notes", on: fixture)
        _ = try await fixture.client.from("tasks").update(["title": "d"] as Row).eq("id", value: 1).execute()
        let tasksHeld = Gate()
        fixture.probe.answer { request in
            if Self.isWrite(to: "tasks")(request) { await tasksHeld.wait() }
            return nil
        }
        await fixture.client.enableNetwork()
        // With one request at a time, the note would wait for the held tasks: this times out.
        _ = try await fixture.probe.requests(atLeast: 1, where: Self.isWrite(to: "notes"))
        tasksHeld.open()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        let tasks = fixture.writes.filter(Self.isWrite(to: "tasks"))
        #expect(tasks.map(\.method) == [.post, .patch])
        #expect(Self.ids(tasks).first == [1, 2])
        #expect(await fixture.server.rows(of: "tasks").map { $0["title"] } == ["d", "b"])
        #expect(await fixture.server.rows(of: "notes").map { $0["id"] } == [3])
        await fixture.client.close()
    }

    @Test(
        "a write refused while an earlier one of another table is unanswered goes again in order, rejected only then"
    )
    func overtakingRefusalIsNotARejection() async throws {
        let fixture = try await Self.offline(tables: ["lists", "todos"])
        let server = fixture.server
        try await Self.insert(["id": 1, "name": "groceries"], into: "lists", on: fixture)
        let todo = try await Self.insert(["id": 10, "list_id": 1], into: "todos", on: fixture)
        let orphan = try await Self.insert(["id": 11, "list_id": 99], into: "todos", on: fixture)
        let listsHeld = Gate()
        fixture.probe.answer { request in
            if Self.isWrite(to: "lists")(request) { await listsHeld.wait() }
            guard Self.isWrite(to: "todos")(request) else { return nil }
            // A foreign key: each todo's list must be on the server already.
            let lists = Set(await server.rows(of: "lists").compactMap { $0["id"] })
            let missing = request.bodyRows.contains { !lists.contains($0["list_id"] ?? .null) }
            return missing ? errorResponse(status: 409, code: "23503", message: "foreign key") : nil
        }
        await fixture.client.enableNetwork()
        _ = try await fixture.probe.requests(atLeast: 1, where: Self.isWrite(to: "todos"))
        listsHeld.open()
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(rejected.map(\.id) == [orphan])
        #expect(rejected.first?.error.code == "23503")
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        guard case .accepted = try await fixture.client.outcome(of: todo) else {
            Issue.record("the todo whose list came first was not accepted")
            return
        }
        #expect(await server.rows(of: "todos").map { $0["id"] } == [10])
        // Overtaking [10, 11] (refused, kept), then in order: [10, 11] refused, split: [10], [11].
        #expect(
            Self.ids(fixture.writes.filter(Self.isWrite(to: "todos"))) == [[10, 11], [10, 11], [10], [11]])
        await fixture.client.close()
    }

    @Test(
        "a transient failure of one table stops the pass: the others start nothing more, and all goes later once"
    )
    func transientFailureStopsEveryTable() async throws {
        let fixture = try await Self.offline(tables: ["tasks", "notes"])
        try await Self.insert(["id": 1, "title": "a"], into: "tasks", on: fixture)
        try await Self.insert(["id": 2, "body": "b"], into: "notes", on: fixture)
        _ = try await fixture.client.from("tasks").update(["title": "c"] as Row).eq("id", value: 1).execute()
        let tasksHeld = Gate()
        let failures = Turns(1)
        fixture.probe.answer { request in
            if Self.isWrite(to: "tasks")(request) { await tasksHeld.wait() }
            guard Self.isWrite(to: "notes")(request), failures.take() else { return nil }
            return errorResponse(status: 503, code: "PGRST002")
        }
        await fixture.client.enableNetwork()
        _ = try await fixture.probe.requests(atLeast: 1, where: Self.isWrite(to: "notes"))
        tasksHeld.open()
        try await fixture.sleepers(atLeast: 1)
        // The task's insert in flight was answered; its update did not start after the failure.
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 2)
        #expect(fixture.writes.map(\.method) == [.post, .post])
        fixture.clock.advance(by: .milliseconds(300))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.filter(Self.isWrite(to: "tasks")).map(\.method) == [.post, .patch])
        #expect(fixture.writes.filter(Self.isWrite(to: "notes")).count == 2)
        #expect(await fixture.server.rows(of: "tasks").map { $0["title"] } == ["c"])
        #expect(await fixture.server.rows(of: "notes").map { $0["id"] } == [2])
        await fixture.client.close()
    }
}
