import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The catalog's "Signing in with supabase-swift" snippets, run against supabase-swift's Auth as
/// a stand-in: the token provider names the user, and the auth state changes sign out.
@Suite("Signing in with supabase-swift, public API only", .timeLimit(.minutes(10)))
struct SigningInTests {
    @Test("the token provider's user is the client's; following authStateChanges signs out with the app")
    func bridge() async throws {
        try await withTemporaryFolder("signing-in") { folder in
            let id = UUID()
            let user = id.uuidString.lowercased()
            let session = Session(
                accessToken: unsignedJWT(user: user), refreshToken: "refresh",
                expiresAt: Date().addingTimeInterval(3_600).timeIntervalSince1970, user: User(id: id))
            let supabase = SupabaseStandIn(auth: AuthStandIn(session: session))
            let server = RecordingTransport(wrapping: InMemoryPostgREST(tables: ["tasks": []]))
            let client = try await signingInWithTokens(
                projectURL: URL(string: "https://example.invalid")!, anonKey: "anon-key",
                appSupportURL: folder,
                supabase: supabase, transport: server)
            try await withTimeout(30) {
                for try await state in client.session where state.userID == user { return }
            }
            try await client.from("tasks").insert(["id": 1] as Row).execute()
            #expect(server.requests.last?.headers["Authorization"] == "Bearer " + session.accessToken)

            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await signingInFollow(client, supabase: supabase) }
                supabase.auth.change(.signedOut, to: nil)
                try await withTimeout(30) {
                    for try await state in client.session where state == .signedOut { return }
                }
                supabase.auth.finish()
                try await group.waitForAll()
            }
            await client.close()
        }
    }
}
