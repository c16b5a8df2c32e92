import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// One device several users sign in to in turn: a client on a store folder, in front of a
/// server with row-level security per user (``RowSecurityServer``, table `items`, owner column
/// `owner`) that the test can make fail, and every request the server saw, with its token.
struct SharedDevice {
    let server: RowSecurityServer
    let client: OfflineClient
    let clock = ManualClock()
    let folder: URL
    /// The way to the server, which the test can make fail; it logs every request.
    let transport: FailableTransport

    /// A device with a new store, or the store in `folder` (a relaunch).
    init(sharing: CacheSharing, server existing: RowSecurityServer? = nil, folder: URL? = nil) async throws {
        let server =
            existing ?? RowSecurityServer(table: "items", apiKey: "anon-key", faults: .none, seed: 30)
        self.server = server
        self.folder = folder ?? temporaryStoreFolder()
        transport = FailableTransport(server: server)
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key",
            storage: .directory(self.folder),
            clock: clock, transport: transport)
        configuration.sharing = sharing
        client = try await OfflineClient(configuration: configuration)
    }

    /// Puts rows on the server as their owners, through another client of the same server.
    static func seed(_ server: RowSecurityServer, _ rows: [(owner: String, id: String)]) async throws {
        let seeder = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", transport: server))
        for (owner, id) in rows {
            try await seeder.signIn(Self.session(owner))
            _ = try await seeder.from("items").insert(["id": .string(id), "owner": .string(owner)] as Row)
                .execute(policy: .onlineOnly)
        }
        await seeder.close()
    }

    /// A new device whose server holds A's row `a1` and B's row `b1`, with A signed in.
    static func withRowsOfAAndB(sharing: CacheSharing) async throws -> SharedDevice {
        let device = try await SharedDevice(sharing: sharing)
        try await seed(device.server, [("A", "a1"), ("B", "b1")])
        try await device.client.signIn(session("A"))
        return device
    }

    static func session(_ user: String) -> AuthSession {
        AuthSession(accessToken: "token-\(user)", userID: user)
    }

    /// The tokens of the write requests the server saw so far, in order.
    var writeTokens: [String?] {
        transport.requests.values.filter { $0.method != .get }.map { $0.headers["Authorization"] }
    }

    /// Waits (moving the clock) until the queue drains, then checks that A's write `a2` reached
    /// the server as A's, and that every write went with A's token.
    func expectQueueReplayedAsA() async throws {
        _ = try await clock.driving {
            try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
        }
        #expect(await server.report().rows["a2"]?["owner"] == "A")
        #expect(writeTokens.allSatisfy { $0 == "Bearer token-A" })
    }

    /// Closes the client and removes its store.
    func close() async {
        await client.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
