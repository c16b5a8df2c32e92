import Foundation
import Testing

@testable import OfflineEngine

@Suite("Clearing leaves nothing readable", .timeLimit(.minutes(10)))
struct ClientClearPrivacyTests {
    private static let token = "token-SECRET-abc123"
    private static let cachedText = "cached-SECRET-def456"
    private static let queuedText = "queued-SECRET-ghi789"

    @Test("after clearLocalData no cleared value is readable in any of the store's files, client still open")
    func clearedValuesLeaveTheFiles() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(
                tables: ["tasks": [["id": 1, "title": .string(Self.cachedText)]]],
                storage: .directory(folder),
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
                #expect(
                    try !filesContaining(secret, in: folder).isEmpty, "\(secret) is on disk before the clear")
            }

            try await client.clearLocalData()
            for secret in [Self.token, Self.cachedText, Self.queuedText] {
                #expect(try filesContaining(secret, in: folder) == [], "\(secret) is gone after the clear")
            }
            await client.close()
        }
    }

    @Test(
        "after clearLocalData no rejected write's values, accepted write's rows or evicted list is readable")
    func rejectedAcceptedAndEvictedLeaveTheFiles() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let rejectedText = "rejected-SECRET-jkl012"
            let acceptedText = "accepted-SECRET-mno345"
            let evictedText = "evicted-SECRET-pqr678"
            let fixture = try await ClientFixture(
                tables: ["tasks": [], "old": [["id": 1, "title": .string(evictedText)]]],
                storage: .directory(folder),
                configure: { $0.cache.budget = 1 })
            let client = fixture.client
            // A list the budget evicts at once.
            _ = try await client.from("old").select().fetch()
            // A queued write the server then accepts, returning its row (kept for outcome(of:)).
            try await client.insertQueuedThenAccepted(["id": 1, "title": .string(acceptedText)])
            // A write the server refuses for good, kept with its values among the rejected.
            fixture.probe.answer { request in
                request.method == .post ? errorResponse(status: 403, code: "42501") : nil
            }
            await client.disableNetwork()
            _ = try await client.from("tasks").insert(["id": 2, "title": .string(rejectedText)] as Row)
                .execute()
            await client.enableNetwork()
            _ = try await firstValue(of: client.rejectedMutations()) { $0.count == 1 }
            _ = try await client.cacheSize()
            for secret in [rejectedText, acceptedText] {
                #expect(
                    try !filesContaining(secret, in: folder).isEmpty, "\(secret) is on disk before the clear")
            }

            try await client.clearLocalData()
            for secret in [rejectedText, acceptedText, evictedText] {
                #expect(try filesContaining(secret, in: folder) == [], "\(secret) is gone after the clear")
            }
            await client.close()
        }
    }
}
