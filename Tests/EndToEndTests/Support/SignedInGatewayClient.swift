import Foundation
import OfflineEngine
import OfflineEngineTesting

/// Runs `body` with a client of a fresh ``SupabaseDatabase`` (laid out further by `statements`),
/// served over HTTP by the gateway, signed in with `session` (Alice's unless told), and the
/// local server; closes the client after.
func withSignedInGatewayClient(
    database statements: [String] = [],
    session: AuthSession = SupabaseDatabase.session(GatewayEndToEndTests.alice),
    _ body: (OfflineClient, SupabaseDatabase, LocalHTTPServer) async throws -> Void
) async throws {
    let database = try SupabaseDatabase(laidOutBy: statements)
    try await LocalHTTPServer.serving(try database.gateway()) { local in
        let client = try await gatewayClient(local)
        do {
            try await client.signIn(session)
            try await body(client, database, local)
        } catch {
            await client.close()
            throw error
        }
        await client.close()
    }
}
