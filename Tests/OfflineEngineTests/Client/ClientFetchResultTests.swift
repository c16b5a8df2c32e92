import Foundation
import Testing

@testable import OfflineEngine

/// What a one-shot read says besides its rows, with the same meaning as on a live read's snapshot.
@Suite("One-shot results", .timeLimit(.minutes(10)))
struct ClientFetchResultTests {
    static let rows: [Row] = [["id": 1, "done": false], ["id": 2, "done": true]]

    @Test("hasPendingMutations on a result or a snapshot says whether a queued write changed the rows")
    func resultSaysWhetherAQueuedWriteChangedTheRows() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let all = fixture.client.from("tasks").select()
        let done = fixture.client.from("tasks").select().eq("done", value: true)
        let fresh = try await all.fetch()
        #expect(!fresh.hasPendingMutations)
        #expect(!fresh.isFromCache)
        let fetchedAt = try #require(fresh.fetchedAt)
        _ = try await done.fetch()

        try await fixture.client.insertOffline(["id": 3, "done": false])
        let changed = try await all.fetch()
        #expect(changed.rows.map { $0["id"] } == [1, 2, 3])
        #expect(changed.hasPendingMutations)
        #expect(changed.isFromCache)
        #expect(changed.fetchedAt == fetchedAt)
        // A queued write that leaves these rows as they are does not count.
        let untouched = try await done.fetch()
        #expect(untouched.rows.map { $0["id"] } == [2])
        #expect(!untouched.hasPendingMutations)
        #expect(untouched.isFromCache)
        // The same flags as the live read of the same query.
        let snapshot = try await firstValue(of: all.snapshots()) { $0.refresh == .paused }
        #expect(snapshot.hasPendingMutations == changed.hasPendingMutations)
        #expect(snapshot.result == changed.result)

        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        let synced = try await all.fetch()
        #expect(synced.rows.map { $0["id"] } == [1, 2, 3])
        #expect(!synced.hasPendingMutations)
        #expect(!synced.isFromCache)
        #expect(try #require(synced.fetchedAt) >= fetchedAt)
        await fixture.client.close()
    }
}
