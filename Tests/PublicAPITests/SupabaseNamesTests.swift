import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// A data layer that names supabase-swift's builder types, as written for supabase-swift.
struct TaskQueries {
    let client: OfflineClient

    func table() -> PostgrestQueryBuilder {
        client.from("tasks")
    }

    func open(matching title: String?) -> PostgrestTransformBuilder {
        var query: PostgrestFilterBuilder = table().select()
        query = query.eq("done", value: false)
        if let title { query = query.ilike("title", pattern: "%\(title)%") }
        return query.order("title")
    }

    func first() -> PostgrestTransformBuilder {
        client.from("tasks").select().order("title").limit(1) as PostgrestTransformBuilder
    }
}

/// supabase-swift's names: the builder types, and `single()` / `maybeSingle()` on `rpc`.
@Suite("supabase-swift's names", .timeLimit(.minutes(10)))
struct SupabaseNamesTests {
    private static func client(_ server: InMemoryPostgREST) async throws -> OfflineClient {
        try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", clock: ManualClock(),
                transport: server))
    }

    /// Answers every call of a function with `body`.
    private static func answering(_ body: String) async -> InMemoryPostgREST {
        let server = InMemoryPostgREST(tables: ["tasks": []])
        await server.setInterceptor { request in
            guard request.url.path.contains("/rpc/") else { return nil }
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        return server
    }

    @Test("PostgrestQueryBuilder, PostgrestFilterBuilder and PostgrestTransformBuilder name the builders")
    func builderNames() async throws {
        let rows: [Row] = [
            ["id": .string(UUID().uuidString), "title": "Buy milk", "done": false],
            ["id": .string(UUID().uuidString), "title": "Call Ann", "done": false],
            ["id": .string(UUID().uuidString), "title": "Buy bread", "done": true],
        ]
        let client = try await Self.client(InMemoryPostgREST(tables: ["tasks": rows]))
        let queries = TaskQueries(client: client)
        let open: [Task] = try await queries.open(matching: nil).execute().value
        #expect(open.map(\.title) == ["Buy milk", "Call Ann"])
        let milk: [Task] = try await queries.open(matching: "milk").execute().value
        #expect(milk.map(\.title) == ["Buy milk"])
        let first: [Task] = try await queries.first().execute().value
        #expect(first.map(\.title) == ["Buy bread"])
        let one: Task = try await (queries.first().single() as PostgrestTransformBuilder).execute().value
        #expect(one.title == "Buy bread")
        await client.close()
    }

    @Test("rpc(...).single() decodes the one row a function returned, and refuses none or several")
    func rpcSingle() async throws {
        let id = UUID()
        let one = try await Self.client(
            await Self.answering(#"[{"id":"\#(id)","title":"Buy milk","done":false}]"#))
        let task: Task = try await one.rpc("task_by_title", params: ["title": "Buy milk"]).single().execute()
            .value
        #expect(task == Task(id: id, title: "Buy milk", done: false))
        let optional: Task? = try await one.rpc("task_by_title").maybeSingle().execute().value
        #expect(optional?.id == id)
        let rows: [Task] = try await one.rpc("task_by_title").execute().value
        #expect(rows.count == 1)
        await one.close()

        let several = try await Self.client(await Self.answering(#"[{"id":1},{"id":2}]"#))
        for call in [several.rpc("tasks_due").single(), several.rpc("tasks_due").maybeSingle()] {
            do {
                try await call.execute()
                Issue.record("several rows were not refused")
            } catch let refusal as PostgrestError {
                #expect(refusal.code == "PGRST116" && refusal.status == 406)
            }
        }
        await several.close()

        let none = try await Self.client(await Self.answering("[]"))
        let nothing: Task? = try await none.rpc("task_by_title").maybeSingle().execute().value
        #expect(nothing == nil)
        await #expect(throws: PostgrestError.self) {
            let _: Task = try await none.rpc("task_by_title").single().execute().value
        }
        await none.close()
    }

    @Test("rpc(...).single() on a function that returns one value decodes it as it is")
    func rpcSingleScalar() async throws {
        let client = try await Self.client(await Self.answering("42"))
        let total: Int = try await client.rpc("count_open").single().execute().value
        #expect(total == 42)
        await client.close()
    }
}
