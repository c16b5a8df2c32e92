import Foundation
import Testing

@testable import OfflineEngine

@Suite("Clearing leaves nothing readable")
struct ClientClearPrivacyTests {
    static let token = "token-SECRET-abc123"
    static let cachedText = "cached-SECRET-def456"
    static let queuedText = "queued-SECRET-ghi789"

    @Test("after clearLocalData no cleared value is readable in any of the store's files, client still open")
    func clearedValuesLeaveTheFiles() async throws {
        let folder = clientStoreFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try await ClientFixture(
            tables: ["tasks": [["id": 1, "title": .string(Self.cachedText)]]], storage: .directory(folder),
            signedInAs: nil)
        let client = fixture.client
        try await client.signIn(AuthSession(accessToken: Self.token, userID: "user-1"))
        let fetched = try await client.from("tasks").select().fetch()
        #expect(fetched.rows.map { $0["title"] } == [.string(Self.cachedText)])
        await client.disableNetwork()
        let row: Row = ["id": 2, "title": .string(Self.queuedText)]
        let written = try await client.from("tasks").insert(row).execute().outcome
        guard case .queued = written else {
            Issue.record("expected a queued write, got \(written)")
            return
        }
        for secret in [Self.token, Self.cachedText, Self.queuedText] {
            #expect(try !filesContaining(secret, in: folder).isEmpty, "\(secret) is on disk before the clear")
        }

        try await client.clearLocalData()
        for secret in [Self.token, Self.cachedText, Self.queuedText] {
            #expect(try filesContaining(secret, in: folder) == [], "\(secret) is gone after the clear")
        }
        await client.close()
    }
}
