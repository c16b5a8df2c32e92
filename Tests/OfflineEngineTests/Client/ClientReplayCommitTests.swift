import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// What a replay costs the store (issue 28): a run of writes the server accepts in one answer is
/// two commits, its attempts and its settlement; the cache's launch pass, with nothing to remove,
/// costs none.
@Suite("Replay commits", .timeLimit(.minutes(10)))
struct ClientReplayCommitTests {
    @Test("a replay run of five inserts the server accepts in one batch is two commits")
    func batchedRunIsTwoCommits() async throws {
        let fixture = try await ClientFixture(primaryKeys: ["tasks": ["id"]])
        let client = fixture.client
        await client.disableNetwork()
        for id in 1...5 {
            _ = try await client.from("tasks").insert(["id": .number(.init(id))] as Row).execute()
        }
        // The cache's passes asked for so far have run.
        _ = try await client.cacheSize()
        let before = client.store.commitHooks.commits
        await client.enableNetwork()
        _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.count == 1, "the five inserts went as one request")
        #expect(client.store.commitHooks.commits - before == 2)
        #expect(try await client.store.replayLog.writes(table: "tasks").count == 5)
    }

    @Test("the cache's launch pass with nothing expired and nothing over the budget costs no commit")
    func idleLaunchPassCostsNoCommit() async throws {
        let fixture = try await ClientFixture(signedInAs: nil)
        _ = try await fixture.client.cacheSize()
        #expect(fixture.client.store.commitHooks.commits == 0)
    }
}
