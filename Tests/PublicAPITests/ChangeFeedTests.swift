import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The catalog's "Changes from other devices" bridge, run against supabase-swift's Realtime as a
/// stand-in: a change the channel sends shows in a live list, and the channel's status shows in
/// the sync status.
@Suite("Changes from other devices, public API only", .timeLimit(.minutes(10)))
struct ChangeFeedTests {
    @Test("Realtime's insert, update and delete reach the live list through the bridge; its status shows")
    func bridge() async throws {
        let server = InMemoryPostgREST(tables: ["tasks": [["id": 1, "title": "a"]]])
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: .inMemory)
        configuration.transport = server
        let client = try await OfflineClient(configuration: configuration)
        let channel = RealtimeChannelV2()
        let columns = [Column(name: "id", type: "int8"), Column(name: "title", type: "text")]
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await followTasks(client, channel: channel) }
            channel.set(.subscribing)
            channel.set(.subscribed)
            try await withTimeout(30) {
                for try await status in client.syncStatus where status.disconnectedFeeds.isEmpty { return }
            }
            let tasks = client.from("tasks").select()
            try await withTimeout(30) {
                for try await snapshot in tasks.snapshots() where snapshot.refresh == .idle {
                    await server.setRows([["id": 1, "title": "b"], ["id": 2, "title": "c"]], of: "tasks")
                    let now = Date()
                    channel.send(
                        .update(
                            UpdateAction(
                                columns: columns, commitTimestamp: now,
                                record: ["id": .integer(1), "title": .string("b")],
                                oldRecord: ["id": .integer(1)])))
                    channel.send(
                        .insert(
                            InsertAction(
                                columns: columns, commitTimestamp: now,
                                record: ["id": .integer(2), "title": .string("c")])))
                    break
                }
                for try await snapshot in tasks.snapshots()
                where snapshot.result?.rows == [["id": 1, "title": "b"], ["id": 2, "title": "c"]] {
                    break
                }
                await server.setRows([["id": 2, "title": "c"]], of: "tasks")
                channel.send(
                    .delete(
                        DeleteAction(
                            columns: columns, commitTimestamp: Date(), oldRecord: ["id": .integer(1)])))
                for try await snapshot in tasks.snapshots()
                where snapshot.result?.rows == [["id": 2, "title": "c"]] {
                    break
                }
            }
            channel.set(.unsubscribed)
            try await withTimeout(30) {
                for try await status in client.syncStatus where status.disconnectedFeeds == ["tasks"] {
                    return
                }
            }
            channel.end()
            try await group.waitForAll()
        }
        await client.close()
    }
}
