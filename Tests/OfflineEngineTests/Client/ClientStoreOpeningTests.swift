import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The store of a client made with `OfflineClient(configuration:)` opens in the background: a
/// store that cannot open reaches every call as the same `StoreError`, a caller that stops
/// waiting does not stop the open, and a close while it opens closes it once open.
@Suite("Client store opening", .timeLimit(.minutes(10)))
struct ClientStoreOpeningTests {
    /// A client made as in a synchronous context (the initialiser that neither throws nor waits).
    private static func madeAtOnce(_ folder: URL) -> OfflineClient {
        OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: .directory(folder),
                clock: ManualClock(), transport: InMemoryPostgREST(tables: ["tasks": []])))
    }

    /// Runs `body` within 30 s on a client made at once on a new store folder, then closes it.
    private static func withClientMadeAtOnce(
        _ body: @escaping @Sendable (_ client: OfflineClient) async throws -> Void
    ) async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let client = madeAtOnce(folder)
            try await withTimeout(30) { try await body(client) }
            await client.close()
        }
    }

    /// A folder whose store file is not a store.
    private static func corruptStoreFolder() throws -> URL {
        let folder = temporaryStoreFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let noise = Data((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try noise.write(to: folder.appendingPathComponent(Storage.fileName))
        return folder
    }

    @Test("a store that cannot open: open() and every call and stream throw the same StoreError")
    func storeThatCannotOpen() async throws {
        let folder = try Self.corruptStoreFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = Self.madeAtOnce(folder)
        // Asked for before the open ends: they end with the error too.
        let events = client.events
        let count = client.pendingMutationCount()
        let live = client.from("tasks").select().snapshots()
        try await withTimeout(30) {
            await #expect(throws: StoreError.corrupt) { try await client.from("tasks").select().execute() }
            await #expect(throws: StoreError.corrupt) { try await client.open() }
            await #expect(throws: StoreError.corrupt) {
                try await client.from("tasks").insert(["id": 1]).execute()
            }
            await #expect(throws: StoreError.corrupt) { try await client.from("tasks").select().fetch() }
            await #expect(throws: StoreError.corrupt) {
                try await client.signIn(AuthSession(accessToken: "t", userID: "u"))
            }
            await #expect(throws: StoreError.corrupt) { try await client.cacheSize() }
            await #expect(throws: StoreError.corrupt) { try await client.rpc("f").execute() }
            await #expect(throws: StoreError.corrupt) { for try await _ in events {} }
            await #expect(throws: StoreError.corrupt) { for try await _ in count {} }
            await #expect(throws: StoreError.corrupt) { for try await _ in live {} }
            await #expect(throws: StoreError.corrupt) { for try await _ in client.syncStatus {} }
            await #expect(throws: StoreError.corrupt) { try await client.open() }
        }
        await client.close()
        await #expect(throws: ClientError.closed) { try await client.open() }
        await #expect(throws: ClientError.closed) { try await client.from("tasks").select().execute() }
    }

    @Test("the opening initialiser still throws the StoreError of a store that cannot open")
    func openingInitialiserThrows() async throws {
        let folder = try Self.corruptStoreFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: StoreError.corrupt) {
            _ = try await OfflineClient(
                configuration: Configuration(
                    url: URL(string: "https://example.invalid")!, apiKey: "anon-key",
                    storage: .directory(folder),
                    transport: InMemoryPostgREST()))
        }
    }

    @Test("a caller cancelled while the store opens stops waiting; the open goes on for the others")
    func cancelledWaiter() async throws {
        try await Self.withClientMadeAtOnce { client in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await client.from("tasks").select().execute() }
                group.cancelAll()
            }
            try await client.open()
            let rows = try await client.from("tasks").select().execute().rows
            #expect(rows.count == 0)
        }
    }

    @Test("a close while the store opens returns once it opened and closed it; a new client opens it")
    func closeWhileOpening() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let client = Self.madeAtOnce(folder)
            try await withTimeout(30) {
                async let read = try? await client.from("tasks").select().execute().rows.count
                await client.close()
                _ = await read
                await #expect(throws: ClientError.closed) {
                    try await client.from("tasks").select().execute()
                }
                await #expect(throws: ClientError.closed) { try await client.open() }
                // The store was closed: it is not in use.
                let next = Self.madeAtOnce(folder)
                try await next.open()
                await next.close()
            }
        }
    }

    @Test("many callers before the open share one store and one engine")
    func oneOpenForMany() async throws {
        try await Self.withClientMadeAtOnce { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask { _ = try await client.from("tasks").select().execute() }
                }
                try await group.waitForAll()
            }
            let engine = try await client.openedEngine()
            #expect(client.engine === engine)
        }
    }
}
