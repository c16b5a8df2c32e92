import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// One phone running an app's data layer against the end-to-end server: its store in a folder
/// of its own, made as an app makes its client (`let supabase = OfflineClient(...)`,
/// synchronously, the stored session read back at each launch), taken offline as a phone is
/// (the server out of reach and the system reporting no network), and relaunched by closing
/// the client and making a new one on the same folder.
final class AppDevice {
    let local: LocalHTTPServer
    let tables: [String: TableSettings]
    let folder: URL
    private(set) var client: OfflineClient

    init(_ local: LocalHTTPServer, tables: [String: TableSettings]) {
        self.local = local
        self.tables = tables
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-device-\(UUID())")
        client = Self.launch(local, tables: tables, folder: folder)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The client an app makes at launch: synchronous, like supabase-swift's.
    private static func launch(_ local: LocalHTTPServer, tables: [String: TableSettings], folder: URL)
        -> OfflineClient
    {
        var configuration = Configuration(
            url: local.baseURL, apiKey: "anon-key", storage: .directory(folder),
            transport: URLSessionTransport())
        configuration.tables = tables
        return OfflineClient(configuration: configuration)
    }

    /// Runs `body` with a device signed in as Alice, on a fresh database that `statements` lay
    /// out, served over HTTP by the gateway.
    static func signedIn(
        tables: [String: TableSettings], database statements: [String],
        _ body: (AppDevice, SupabaseDatabase, AuthSession) async throws -> Void
    ) async throws {
        let database = try SupabaseDatabase(laidOutBy: statements)
        let session = SupabaseDatabase.session(GatewayEndToEndTests.alice)
        try await LocalHTTPServer.serving(try database.gateway()) { local in
            let device = AppDevice(local, tables: tables)
            try await device.client.signIn(session)
            try await body(device, database, session)
            await device.close()
        }
    }

    /// The phone loses its network: the server cannot be reached and the system says so.
    func goOffline() async {
        local.stopAccepting()
        await client.disableNetwork()
    }

    /// The network comes back.
    func goOnline() async throws {
        try local.resumeAccepting()
        await client.enableNetwork()
    }

    /// The app is killed and launched again on the same store, still offline when `offline`.
    func relaunch(offline: Bool) async {
        await client.close()
        client = Self.launch(local, tables: tables, folder: folder)
        if offline { await client.disableNetwork() }
    }

    /// Waits until the queue has drained.
    func drain() async throws {
        _ = try await first(of: client.pendingMutationCount(), within: 60) { $0 == 0 }
    }

    /// Waits until the live read of `query` shows the server's answer for it, nothing pending:
    /// the list the device keeps equals the server's once the queue has drained.
    func showsServerAnswer(as session: AuthSession, _ query: (OfflineClient) -> ReadQuery) async throws {
        let expected = try await serverAnswer(local, as: session, query)
        let shown = try await first(of: query(client).snapshots(), within: 60) { snapshot in
            !snapshot.hasPendingMutations && snapshot.result?.rows == expected
        }
        #expect(shown.result?.rows == expected)
    }

    /// The network comes back and the queue drains; then each of `queries` shows the server's
    /// answer, as ``showsServerAnswer(as:_:)`` waits for it.
    func drainsOnline(thenShowsServerAnswers queries: [(OfflineClient) -> ReadQuery], as session: AuthSession)
        async throws
    {
        try await goOnline()
        try await drain()
        for query in queries { try await showsServerAnswer(as: session, query) }
    }

    /// Closes the client.
    func close() async {
        await client.close()
    }
}

/// What the server answers `query` for `session`'s user, read by a client of its own that
/// keeps nothing (a one-shot read online), to compare a device's lists with.
func serverAnswer(
    _ local: LocalHTTPServer, as session: AuthSession, _ query: (OfflineClient) -> ReadQuery
) async throws -> QueryRows {
    let reader = try await OfflineClient(
        configuration: Configuration(
            url: local.baseURL, apiKey: "anon-key", storage: .inMemory, transport: URLSessionTransport()))
    do {
        try await reader.signIn(session)
        let rows = try await query(reader).fetch().rows
        await reader.close()
        return rows
    } catch {
        await reader.close()
        throw error
    }
}
