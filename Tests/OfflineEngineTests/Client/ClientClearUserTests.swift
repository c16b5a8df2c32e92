import Foundation
import Testing

@testable import OfflineEngine

/// `clearLocalData(user:)` and the budget on a device shared by users with a cache each.
@Suite("One user's data cleared, every user's lists budgeted", .timeLimit(.minutes(10)))
struct ClientClearUserTests {
    static let tokenA = "token-SECRET-A-abc123"
    static let tokenB = "token-SECRET-B-abc123"
    static let cachedA = "cached-SECRET-A-def456"
    static let cachedB = "cached-SECRET-B-def456"
    static let queuedA = "queued-SECRET-A-ghi789"
    static let queuedB = "queued-SECRET-B-ghi789"
    static let acceptedA = "accepted-SECRET-A-mno345"
    static let rejectedA = "rejected-SECRET-A-jkl012"

    /// A reads, has a write accepted (its rows kept), one rejected and one queued, and signs out;
    /// B signs in, reads and queues a write.
    private static func twoUsersLeaveData(_ fixture: ClientFixture) async throws {
        let client = fixture.client
        try await client.signIn(AuthSession(accessToken: tokenA, userID: "A"))
        _ = try await client.from("tasks").select().fetch()
        try await client.insertQueuedThenAccepted(["id": 10, "title": .string(acceptedA)])
        fixture.probe.answer { request in
            request.method == .post && request.bodyRows.contains { $0["id"] == 11 }
                ? errorResponse(status: 403, code: "42501") : nil
        }
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 11, "title": .string(rejectedA)] as Row).execute()
        await client.enableNetwork()
        _ = try await firstValue(of: client.rejectedMutations()) { $0.count == 1 }
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 12, "title": .string(queuedA)] as Row).execute()
        try await client.signOut()

        await fixture.server.setRows([["id": 20, "title": .string(cachedB)]], of: "tasks")
        try await client.signIn(AuthSession(accessToken: tokenB, userID: "B"))
        await client.enableNetwork()
        _ = try await client.from("tasks").select().fetch()
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 21, "title": .string(queuedB)] as Row).execute()
    }

    @Test(
        "clearLocalData(user:) leaves none of that user's values in the store's files; the other user's stay")
    func oneUsersValuesLeaveTheFiles() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(
                tables: ["tasks": [["id": 1, "title": .string(Self.cachedA)]]], storage: .directory(folder),
                signedInAs: nil)
            let client = fixture.client
            try await Self.twoUsersLeaveData(fixture)
            let ofA = [Self.cachedA, Self.queuedA, Self.acceptedA, Self.rejectedA]
            let ofB = [Self.tokenB, Self.cachedB, Self.queuedB]
            for secret in ofA + ofB {
                #expect(
                    try !filesContaining(secret, in: folder).isEmpty, "\(secret) is on disk before the clear")
            }

            try await client.clearLocalData(user: "A")
            for secret in ofA + [Self.tokenA] {
                #expect(try filesContaining(secret, in: folder) == [], "\(secret) is gone after the clear")
            }
            for secret in ofB {
                #expect(try !filesContaining(secret, in: folder).isEmpty, "\(secret) stays")
            }
            // B, still signed in, keeps their rows and queued write.
            #expect(try await client.from("tasks").select().fetch().rows.map { $0["id"] } == [20, 21])
            #expect(try await firstValue(of: client.pendingMutationCount()) { _ in true } == 1)
            // A, back, finds nothing of theirs.
            try await client.signIn(AuthSession(accessToken: Self.tokenA, userID: "A"))
            #expect(try await firstValue(of: client.pendingMutationCount()) { _ in true } == 0)
            #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.isEmpty)
            await #expect(throws: (any Error).self) { try await client.from("tasks").select().fetch() }
            await client.close()
        }
    }

    @Test("clearing the signed-in user signs them out; the other user's writes stay")
    func clearingTheSignedInUser() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]], signedInAs: nil)
        let client = fixture.client
        try await Self.twoUsersLeaveData(fixture)
        try await client.clearLocalData(user: "B")
        #expect(try await firstValue(of: client.session) { _ in true } == .signedOut)
        try await client.signIn(AuthSession(accessToken: Self.tokenA, userID: "A"))
        #expect(try await firstValue(of: client.pendingMutationCount()) { _ in true } == 1)
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.count == 1)
        try await client.signIn(AuthSession(accessToken: Self.tokenB, userID: "B"))
        #expect(try await firstValue(of: client.pendingMutationCount()) { _ in true } == 0)
        await client.close()
    }

    @Test("a live read held through clearing the signed-in user shows the signed-out cache and its writes")
    func heldReadThroughClear() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]], signedInAs: nil)
        let client = fixture.client
        // The signed-out cache holds the list too: fetched before A signed in.
        _ = try await client.from("tasks").select().fetch()
        try await client.signIn(AuthSession(accessToken: Self.tokenA, userID: "A"))
        let list = LiveList(client.from("tasks").select())
        _ = try await list.first { $0.refresh == .idle && $0.column("id") == ["1"] }
        await client.disableNetwork()
        try await client.clearLocalData(user: "A")
        _ = try await list.first { $0.refresh == .paused && $0.column("id") == ["1"] }
        _ = try await client.from("tasks").insert(["id": 2, "title": "signed out"] as Row).execute()
        let written = try await list.first { $0.column("id").contains("2") }
        #expect(written.column("id") == ["1", "2"])
        list.stop()
        await client.close()
    }

    @Test("every user's lists count in the budget; another user's lists are evicted, never their writes")
    func budgetCountsEveryUser() async throws {
        let tables = ["items": paddedRows(10, padding: 50), "other": paddedRows(10, padding: 50)]
        let measuring = try await ClientFixture(tables: tables, signedInAs: "A")
        _ = try await measuring.client.from("other").select().fetch()
        let perList = try await measuring.client.cacheSize()
        await measuring.client.close()
        // Room for two lists and a half: B's first list takes the cache over.
        let fixture = try await ClientFixture(tables: tables, signedInAs: "A") {
            $0.cache.budget = perList * 5 / 2
        }
        let client = fixture.client
        let store = client.engine.state.store
        let (items, other) = (client.from("items").select(), client.from("other").select())
        _ = try await items.fetch()
        _ = try await other.fetch()
        await client.disableNetwork()
        _ = try await client.from("items").insert(["id": 99, "body": "A's"] as Row).execute()
        try await client.signOut()
        try await client.signIn(ClientFixture.session("B"))
        await client.enableNetwork()
        _ = try await other.fetch()
        // A's least recently read list went; the one behind A's queued write stays, and the write.
        #expect(try await client.cacheSize() <= perList * 5 / 2)
        #expect(try await store.lists(of: "A").list(key: other.query.canonicalKey) == nil)
        #expect(try await store.lists(of: "A").list(key: items.query.canonicalKey) != nil)
        #expect(try await store.lists(of: "B").list(key: other.query.canonicalKey) != nil)
        #expect(try await store.queue.all().map(\.mutation.ownerID) == ["A"])
        await client.close()
    }
}
