import Foundation
import Testing

@testable import OfflineEngine

/// A client on an in-memory store and an in-memory server, for tests of the whole engine.
struct ClientFixture {
    let server: InMemoryPostgREST
    let client: OfflineClient
    let clock: ManualClock

    init(
        tables: [String: [Row]] = ["tasks": []], primaryKeys: [String: [String]] = [:],
        responseTrust: ResponseTrust = .any, storage: Storage = .inMemory, signedInAs user: String? = "user-1"
    ) async throws {
        server = InMemoryPostgREST(tables: tables, primaryKeys: primaryKeys)
        clock = ManualClock()
        client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: storage,
                primaryKeys: primaryKeys, responseTrust: responseTrust, clock: clock, transport: server))
        if let user {
            try await client.signIn(AuthSession(accessToken: "token-\(user)", userID: user))
        }
    }
}

/// Reads a stream until a value meets `condition`, failing (not hanging) after `seconds`.
func firstValue<S: AsyncSequence & Sendable>(
    of stream: S, within seconds: Double = 5, where condition: @escaping @Sendable (S.Element) -> Bool
) async throws -> S.Element where S.Element: Sendable {
    try await withTimeout(seconds) {
        for try await value in stream where condition(value) { return value }
        throw TimedOut()
    }
}

extension QuerySnapshot {
    /// The rows' values of one column, as text.
    func column(_ name: String) -> [String] {
        (result?.rows ?? []).map { $0[name]?.rawValue ?? "-" }
    }
}
