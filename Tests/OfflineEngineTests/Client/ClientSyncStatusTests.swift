import Foundation
import Testing

@testable import OfflineEngine

/// `syncStatus`: the client's sync at a glance, through a replay that fails and then succeeds.
@Suite("The sync status", .timeLimit(.minutes(10)))
struct ClientSyncStatusTests {
    @Test("pending count and age offline, the upload error while the server fails, then synced")
    func throughAReplay() async throws {
        let fixture = try await ClientFixture()
        let client = fixture.client
        await client.disableNetwork()
        try await client.from("tasks").insert(["id": 1] as Row).execute()
        try await client.from("tasks").insert(["id": 2] as Row).execute()
        let offline = try await firstValue(of: client.syncStatus) { $0.pendingCount == 2 }
        #expect(offline.connectivity == .offline && offline.oldestPendingAt != nil)
        #expect(offline.lastSyncedAt == nil && offline.lastUploadError == nil && !offline.isWaitingForSession)
        #expect(try await client.store.queue.all().count == offline.pendingCount)

        let failures = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post, failures.take() else { return nil }
            return errorResponse(status: 503, code: "PGRST002", message: "schema cache")
        }
        await client.enableNetwork()
        let failing = try await firstValue(of: client.syncStatus) { $0.lastUploadError != nil }
        #expect(failing.pendingCount == 2)
        // The library's words: no URL.
        #expect(failing.lastUploadError?.contains("example.invalid") == false)
        let synced = try await fixture.clock.driving {
            try await firstValue(of: client.syncStatus) { $0.pendingCount == 0 && !$0.isUploading }
        }
        #expect(synced.lastSyncedAt != nil && synced.lastUploadError == nil && synced.oldestPendingAt == nil)
        #expect(try await client.store.queue.all().isEmpty)
        await client.close()
    }

    @Test("a refused session shows as waiting for a session")
    func waitingForSession() async throws {
        let fixture = try await ClientFixture(signedInAs: nil)
        try await fixture.client.signIn(
            AuthSession(accessToken: "token-1", userID: "user-1", expiresAt: Date().addingTimeInterval(-1)))
        try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        let status = try await firstValue(of: fixture.client.syncStatus) { $0.isWaitingForSession }
        #expect(status.pendingCount == 1)
        await fixture.client.close()
    }
}
