import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The catalog's "Showing pending and rejected writes" models, run on the public API: the list's
/// model marks a pending write's row, the status model shows its refusal, and fixTitle sends it
/// again.
@Suite("Pending and rejected writes, public API only", .timeLimit(.minutes(10)))
struct PendingWritesTests {
    @Test("the models show a pending write's mark, then its refusal, and fixTitle sends it again")
    @MainActor
    func models() async throws {
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
        let tasks = LiveQueryModel(client.from("tasks").select().order("title"), as: TaskRow.self)
        let sync = SyncStatusModel(client)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await tasks.run() }
            group.addTask { await sync.run() }
            await client.disableNetwork()
            let id = UUID()
            try await client.from("tasks").insert(
                ["id": .string(id.uuidString.lowercased()), "title": ""] as Row
            )
            .execute()
            try await withTimeout(30) { @MainActor in
                while !tasks.pendingRowIDs.contains(id) || sync.pendingCount != 1 {
                    await _Concurrency.Task.yield()
                }
            }
            #expect(tasks.rows.map(\.id) == [id] && tasks.hasPendingMutations)
            await client.enableNetwork()
            try await withTimeout(30) { @MainActor in
                // The models settle each on its own: wait for all three to show the refusal.
                while sync.rejected.isEmpty || !tasks.rows.isEmpty || sync.pendingCount != 0 {
                    await _Concurrency.Task.yield()
                }
            }
            #expect(tasks.pendingRowIDs.isEmpty && sync.pendingCount == 0)
            try await fixTitle(sync.rejected[0], client: client)
            try await client.waitForPendingWrites()
            #expect(await server.rows(of: "tasks").first?["title"] == "Untitled")
            await client.close()
        }
    }
}
