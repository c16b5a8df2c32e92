import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The catalog's "Showing pending and rejected writes" model, run on the public API: it follows
/// a client's pending and rejected writes and its status, and a refused write is fixed and retried.
@Suite("Pending and rejected writes, public API only")
struct PendingWritesTests {
    @Test("the model shows a pending write, then its refusal, and fixTitle sends it again")
    @MainActor
    func model() async throws {
        let server = InMemoryPostgREST(tables: ["tasks": []])
        await server.setInterceptor { request in
            guard request.method == .post, let body = request.body,
                String(decoding: body, as: UTF8.self).contains(#""title":"""#)
            else { return nil }
            return HTTPResponse(
                status: 400, headers: ["Content-Type": "application/json"],
                body: Data(#"{"code":"23514","message":"check","details":null,"hint":null}"#.utf8))
        }
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", clock: ManualClock(),
                transport: server))
        let model = SyncModel()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await model.follow(client) }
            await client.disableNetwork()
            let id = UUID()
            try await client.from("tasks").insert(
                ["id": .string(id.uuidString.lowercased()), "title": ""] as Row
            )
            .execute()
            try await within(30) { @MainActor in
                while model.pendingIDs != [id.uuidString.lowercased()] { await _Concurrency.Task.yield() }
            }
            await client.enableNetwork()
            try await within(30) { @MainActor in
                while model.rejected.isEmpty { await _Concurrency.Task.yield() }
            }
            try await fixTitle(model.rejected[0], client: client)
            try await client.waitForPendingWrites()
            #expect(await server.rows(of: "tasks").first?["title"] == "Untitled")
            await client.close()
            try await group.waitForAll()
        }
    }
}
