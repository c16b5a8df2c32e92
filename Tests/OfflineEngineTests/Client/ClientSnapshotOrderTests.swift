import Testing

@testable import OfflineEngine

@Suite("Snapshots arrive in order", .timeLimit(.minutes(10)))
struct ClientSnapshotOrderTests {
    @Test(
        "a live read goes from the cache to the server's rows, then shows a queued write, then the write synced"
    )
    func writeLifecycleInOrder() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let recorder = SnapshotRecorder(fixture.client.from("tasks").select().snapshots()) { snapshot in
            "\(snapshot.column("id").joined(separator: ",")) pending:\(snapshot.hasPendingMutations) \(snapshot.refresh)"
        }
        try await recorder.expect([" pending:false refreshing", "1 pending:false idle"])
        try await fixture.client.insertOffline(["id": 2])
        try await recorder.expect([
            " pending:false refreshing", "1 pending:false idle", "1,2 pending:true idle",
        ])
        await fixture.client.enableNetwork()
        try await recorder.expect([
            " pending:false refreshing", "1 pending:false idle", "1,2 pending:true idle",
            "1,2 pending:false idle",
        ])
        await recorder.stop()
        await fixture.client.close()
    }
}
