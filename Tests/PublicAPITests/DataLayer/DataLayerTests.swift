import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The supabase-swift data layer runs as written against an in-memory server: online, then
/// offline, where its writes queue and its reads answer from the device.
@Suite("A supabase-swift data layer, with only the import changed", .timeLimit(.minutes(10)))
struct DataLayerTests {
    @Test("reads with value, single, maybeSingle and counts; writes with returning; rpc")
    func dataLayerRuns() async throws {
        let server = InMemoryPostgREST(tables: ["todos": []])
        await server.setInterceptor { request in
            guard request.url.path.contains("/rpc/") else { return nil }
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"open":1,"done":1}"#.utf8))
        }
        let database = try await Database(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", clock: ManualClock(),
                transport: server))
        let repository = TodoRepository(database: database)
        let now = Date(timeIntervalSince1970: 1_700_000_000.123)
        let milk = try await repository.add(NewTodo(id: UUID(), title: "Buy milk", createdAt: now))
        let more = try await repository.addAll([
            NewTodo(id: UUID(), title: "Call Ann", createdAt: now.addingTimeInterval(1)),
            NewTodo(id: UUID(), title: "Pay rent", createdAt: now.addingTimeInterval(2)),
        ])
        #expect(more.count == 2)
        #expect(try await repository.todos().map(\.title) == ["Pay rent", "Call Ann", "Buy milk"])
        #expect(try await repository.todo(id: milk.id) == milk)
        #expect(try await repository.todoIfAny(id: UUID()) == nil)
        #expect(try await repository.complete(id: milk.id).isComplete)
        #expect(try await repository.openCount() == 2)
        let page = try await repository.page(0, size: 2)
        #expect(page.todos.count == 2 && page.total == 3)
        #expect(
            try await repository.rename(id: more[0].id, to: "Call Ann back").first?.title == "Call Ann back")
        #expect(try await repository.stats() == TodoStats(open: 1, done: 1))
        #expect(try await repository.removeCompleted() == 1)

        await database.disableNetwork()
        let offline = try await repository.add(NewTodo(id: UUID(), title: "Water plants", createdAt: now))
        #expect(offline.title == "Water plants")
        #expect(try await repository.todos().count == 3)
        try await repository.remove(id: more[1].id)
        #expect(try await repository.todos().map(\.title) == ["Call Ann back", "Water plants"])
        await #expect(throws: ClientError.self) { try await repository.stats(since: now) }
        await database.close()
    }
}
