import Foundation
import OfflineEngine

// The catalog's "Signing in with supabase-swift" snippets, one function each, with the
// placeholders they name as parameters. Changes are marked "adapted".

/// "Give it the token before each request".
func signingInWithTokens(
    projectURL: URL, anonKey: String, appSupportURL: URL, supabase: SupabaseStandIn,
    transport: any HTTPTransport  // adapted: the test's server
) async throws -> OfflineClient {
    var configuration = Configuration(url: projectURL, apiKey: anonKey, storage: .directory(appSupportURL))
    configuration.transport = transport  // adapted
    configuration.accessToken = { try await supabase.auth.session.accessToken }
    let client = try await OfflineClient(configuration: configuration)
    return client  // adapted
}

/// "Follow the sign-ins and sign-outs".
func signingInFollow(_ client: OfflineClient, supabase: SupabaseStandIn) async throws {
    let sessions = supabase.auth.authStateChanges.map { _, session in
        session.map {
            AuthSession(
                accessToken: $0.accessToken, refreshToken: $0.refreshToken,
                userID: $0.user.id.uuidString.lowercased(),
                expiresAt: Date(timeIntervalSince1970: $0.expiresAt))
        }
    }
    try await client.follow(sessions: sessions)  // until the stream ends or the client closes
}

/// "Show that the session needs attention" (the loop runs until the stream ends).
func signingInBanner(_ client: OfflineClient, banner: @Sendable (Bool) -> Void) async throws {
    for try await state in client.session {
        if case .waitingForToken = state {
            banner(true)  // adapted: showSignInAgainBanner()
        } else {
            banner(false)  // adapted: hideSignInAgainBanner()
        }
    }
}
