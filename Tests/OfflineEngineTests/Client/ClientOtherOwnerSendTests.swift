import Foundation
import Testing

@testable import OfflineEngine

/// SPEC section 2: a write is sent at once when no earlier write of the same owner waits; another
/// user's queued writes do not hold it back (they wait for their owner).
@Suite("Another user's queued writes do not hold a write back", .timeLimit(.minutes(10)))
struct ClientOtherOwnerSendTests {
    @Test("user B's write goes out at once while user A's queued write waits for A")
    func otherOwnersQueueDoesNotBlock() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": []])
        try await fixture.client.insertOffline(["id": 1])
        try await fixture.client.signIn(ClientFixture.session("user-2"))
        await fixture.client.enableNetwork()
        let outcome = try await fixture.client.from("tasks").insert(["id": 2] as Row).execute().outcome
        #expect(outcome == .sent([]))
        #expect(fixture.writes.map(\.authorization) == ["Bearer token-user-2"])
        #expect(await fixture.server.rows(of: "tasks") == [["id": 2]])
        // A's write is still queued, for A.
        #expect(
            try await fixture.client.store.queue.owned(by: "user-1").map(\.mutation.rows) == [[["id": 1]]])
        await fixture.client.close()
    }
}
