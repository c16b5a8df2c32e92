import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A cold start with the app's own session restore (`Configuration.restoreSession`).
@Suite("Session restore on a cold start", .timeLimit(.minutes(10)))
struct ClientSessionRestoreTests {
    /// A store folder whose cached list of tasks and stored session (user-1) a previous client left.
    static func previousClient(_ folder: URL) async throws -> ClientFixture {
        let first = try await ClientFixture(
            tables: ["tasks": [["id": 1, "title": "a"]]], storage: .directory(folder))
        _ = try await first.client.from("tasks").select().fetch()
        await first.client.close()
        return first
    }

    @Test(
        "Until supabase-kt's Auth plugin has restored the stored session, the refresh reads Refreshing, with the cached rows on screen"
    )
    func refreshingWithCachedRowsUntilRestored() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.previousClient(folder)
            await first.server.setRows([["id": 1, "title": "a"], ["id": 2, "title": "b"]], of: "tasks")
            let gate = Gate()
            let restored = AuthSession(accessToken: "token-restored", userID: "user-1")
            let second = try await ClientFixture.relaunched(
                in: folder, server: first.server, restoringAfter: gate
            ) {
                restored
            }
            let stream = second.client.from("tasks").select().snapshots()
            let cached = try await firstValue(of: stream) { _ in true }
            _ = try await withTimeout(10) { try await gate.arrivals.values(atLeast: 1) }
            #expect(try await firstValue(of: second.client.session) { _ in true } == .restoring)
            #expect(cached.column("title") == ["a"])
            #expect(cached.refresh == .refreshing)
            #expect(cached.isFromCache)
            #expect(second.probe.requests.isEmpty)

            gate.open()
            let settled = try await firstValue(of: second.client.session) { $0 != .restoring }
            #expect(settled == .signedIn(restored))
            let fresh = try await firstValue(of: stream) { $0.refresh == .idle }
            #expect(fresh.column("title") == ["a", "b"])
            #expect(!fresh.isFromCache)
            #expect(second.gets.map(\.authorization) == ["Bearer token-restored"])
            await second.client.close()
        }
    }

    @Test("a restore that finds no session signs out: the stored session is forgotten")
    func restoredNothingSignsOut() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.previousClient(folder)
            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: first.server, probe: ServerProbe()
            ) { $0.restoreSession = { nil } }
            #expect(try await firstValue(of: second.client.session) { $0 != .restoring } == .signedOut)
            let stream = second.client.from("tasks").select().snapshots()
            _ = try await firstValue(of: stream) { $0.refresh == .idle }
            #expect(second.gets.map(\.authorization) == ["Bearer anon-key"])
            await second.client.close()

            let third = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: first.server, probe: ServerProbe())
            #expect(try await firstValue(of: third.client.session) { $0 != .restoring } == .signedOut)
            await third.client.close()
        }
    }

    @Test("a sign-in made while the restore runs wins over what the restore returns")
    func signInDuringRestoreWins() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.previousClient(folder)
            let gate = Gate()
            let second = try await ClientFixture.relaunched(
                in: folder, server: first.server, restoringAfter: gate
            ) {
                ClientFixture.session("user-1")
            }
            _ = try await withTimeout(10) { try await gate.arrivals.values(atLeast: 1) }
            try await second.client.signIn(ClientFixture.session("user-2"))
            gate.open()
            #expect(try await firstValue(of: second.client.session) { _ in true }.userID == "user-2")
            // Closing waits for the restore to end: what it returned did not sign user-1 in.
            await second.client.close()
            let store = try Store.open(.directory(folder))
            #expect(try await store.account.session()?.userID == "user-2")
            await store.close()
        }
    }
}
