import Foundation
import Testing

@testable import OfflineEngine

/// Session changes called one after the other, while the first still waits on the store: the
/// store keeps the last one, as memory does, so a relaunch restores what the app said last.
@Suite("Session changes overlapping on the store", .timeLimit(.minutes(10)))
struct ClientSessionOrderTests {
    @Test(
        "a sign-out called while a sign-in still loads the new owner's lists: the store keeps nobody signed in"
    )
    func signOutDuringSignIn() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(storage: .directory(folder), signedInAs: nil)
            let client = fixture.client
            let list = LiveList(client.from("tasks").select())
            defer { list.stop() }
            _ = try await list.first { $0.refresh == .idle }
            let stall = StoreStall(client.store)
            try await stall.engage()
            async let signedIn: Void = client.signIn(ClientFixture.session("A"))
            try await stall.waiting(atLeast: 1)
            async let signedOut: Void = client.signOut()
            try await stall.waiting(atLeast: 2)
            await stall.resume()
            try await signedIn
            try await signedOut
            #expect(try await firstValue(of: client.session) { _ in true } == .signedOut)
            #expect(try await client.store.account.session() == nil)
            #expect(try await client.store.account.owner() == nil)
            await client.close()
        }
    }
}
