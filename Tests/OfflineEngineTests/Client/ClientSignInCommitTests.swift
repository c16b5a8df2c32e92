import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A sign-in is one store commit (issue 28): the new owner, the hand-over of the lists, the
/// session and the claim of owner-less queued writes are written together, so a failure leaves
/// none of them half done and the store's writer is not held for several transactions.
@Suite("Sign-in and sign-out commits", .timeLimit(.minutes(10)))
struct ClientSignInCommitTests {
    /// A signed-out client, offline (no answer commits meanwhile), with its session settled and
    /// an owner-less write queued.
    private static func signedOutWithAWrite(_ sharing: CacheSharing) async throws -> ClientFixture {
        let fixture = try await ClientFixture(signedInAs: nil) { $0.sharing = sharing }
        _ = try await firstValue(of: fixture.client.session) { $0 != .restoring }
        try await fixture.client.insertOffline(["id": 1])
        return fixture
    }

    /// ``signedOutWithAWrite(_:)`` per user, then `user-1` signed in: the write is theirs.
    private static func userOneWithAWrite() async throws -> ClientFixture {
        let fixture = try await signedOutWithAWrite(.perUser)
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        return fixture
    }

    /// The commits `body` costs the client's store.
    private static func commits(of fixture: ClientFixture, _ body: () async throws -> Void) async rethrows
        -> Int
    {
        let before = fixture.client.store.commitHooks.commits
        try await body()
        return fixture.client.store.commitHooks.commits - before
    }

    @Test(
        "a sign-in of a new user, per user or handing the cache over, is one commit",
        arguments: [
            CacheSharing.perUser, .handOver,
        ])
    func signInIsOneCommit(sharing: CacheSharing) async throws {
        let fixture = try await Self.signedOutWithAWrite(sharing)
        let client = fixture.client
        let commits = try await Self.commits(of: fixture) {
            try await client.signIn(ClientFixture.session("user-1"))
        }
        #expect(commits == 1)
        // All of it was written: the claim, the owner and the session.
        let queued = try await client.store.queue.all()
        #expect(queued.map(\.mutation.ownerID) == ["user-1"])
        #expect(try await client.store.account.owner() == "user-1")
        #expect(try await client.store.account.session()?.userID == "user-1")
    }

    @Test("the same user signing in again (a new token) is one commit")
    func signInAgainIsOneCommit() async throws {
        let fixture = try await Self.userOneWithAWrite()
        let client = fixture.client
        var renewed = ClientFixture.session("user-1")
        renewed.accessToken = "token-user-1-renewed"
        let commits = try await Self.commits(of: fixture) { try await client.signIn(renewed) }
        #expect(commits == 1)
        #expect(try await client.store.account.session()?.accessToken == "token-user-1-renewed")
    }

    @Test("a sign-out, per user, is one commit")
    func signOutIsOneCommit() async throws {
        let fixture = try await Self.userOneWithAWrite()
        let client = fixture.client
        let commits = try await Self.commits(of: fixture) { try await client.signOut() }
        #expect(commits == 1)
        #expect(try await client.store.account.owner() == nil)
        #expect(try await client.store.account.session() == nil)
    }

    @Test("a clear, of every user's data or of one user's, is one commit")
    func clearIsOneCommit() async throws {
        for oneUser in [false, true] {
            let fixture = try await Self.userOneWithAWrite()
            let client = fixture.client
            let commits = try await Self.commits(of: fixture) {
                if oneUser {
                    try await client.clearLocalData(user: "user-1")
                } else {
                    try await client.clearLocalData()
                }
            }
            #expect(commits == 1, "clearing \(oneUser ? "one user's" : "every user's") data")
            #expect(try await client.store.queue.all().isEmpty)
            #expect(try await client.store.account.session() == nil)
        }
    }
}
