import Foundation
import OfflineEngineTesting

@testable import OfflineEngine

/// A client on an in-memory store and an in-memory server, for tests of the whole engine.
struct ClientFixture {
    let server: InMemoryPostgREST
    let client: OfflineClient
    let clock: ManualClock
    /// Every request that reached the server, in order (when the fixture installed the probe).
    let probe: ServerProbe

    init(
        tables: [String: [Row]] = ["tasks": []], primaryKeys: [String: [String]] = [:],
        responseTrust: ResponseTrust = .any, storage: Storage = .inMemory,
        signedInAs user: String? = "user-1",
        server existing: InMemoryPostgREST? = nil, probe existingProbe: ServerProbe? = nil,
        configure: (inout Configuration) -> Void = { _ in }
    ) async throws {
        server = existing ?? InMemoryPostgREST(tables: tables, primaryKeys: primaryKeys)
        probe = existingProbe ?? ServerProbe()
        await probe.install(on: server)
        clock = ManualClock()
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: storage,
            primaryKeys: primaryKeys, responseTrust: responseTrust, clock: clock, transport: server)
        configure(&configuration)
        client = try await OfflineClient(configuration: configuration)
        if let user {
            try await client.signIn(Self.session(user))
        }
    }

    static func session(_ user: String) -> AuthSession {
        AuthSession(accessToken: "token-\(user)", userID: user)
    }

    /// The GET requests the server received so far.
    var gets: [HTTPRequest] { probe.requests.filter { $0.method == .get } }
    /// The write requests the server received so far.
    var writes: [HTTPRequest] { probe.requests.filter { $0.method != .get } }
}

extension ClientFixture {
    /// Waits until at least `count` tasks sleep on the fixture's clock, failing after `seconds`.
    func sleepers(atLeast count: Int, within seconds: Double = 30) async throws {
        try await withTimeout(seconds) { [clock] in await clock.sleepers(atLeast: count) }
    }

    /// The latest snapshot of a live read that is being read now.
    func current(_ read: ReadQuery) async -> QuerySnapshot? {
        await client.engine.liveReads.latest(of: read.query.canonicalKey)
    }
}
