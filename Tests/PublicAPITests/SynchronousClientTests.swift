import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The server behind ``supabase``, with one task on it.
let globalServer = InMemoryPostgREST(
    tables: ["tasks": [["id": .string(UUID().uuidString), "title": "Buy milk", "done": false]]],
    primaryKeys: ["tasks": ["id"]])

/// A client made as supabase-swift apps make theirs: a global `let`, with no `try` and no `await`.
let supabase = OfflineClient(
    configuration: Configuration(
        url: URL(string: "https://example.invalid")!, apiKey: "anon-key", primaryKeys: ["tasks": ["id"]],
        clock: ManualClock(), transport: globalServer))

/// A type that makes its client in a synchronous `init`, as an app's model or view model does.
final class TasksModel: Sendable {
    let client: OfflineClient

    init(server: InMemoryPostgREST, storage: Storage = .inMemory) {
        client = OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: storage,
                primaryKeys: ["tasks": ["id"]], clock: ManualClock(), transport: server))
    }

    func tasks() async throws -> [Task] {
        try await client.from("tasks").select().order("title").execute().value
    }

    func add(_ task: Task) async throws {
        try await client.from("tasks").insert(task).execute()
    }
}

/// `OfflineClient(configuration:)` made where supabase-swift's client is made (a global, a
/// synchronous `init`), and used at once: the calls wait for the store to open.
@Suite("A client made without try or await", .timeLimit(.minutes(10)))
struct SynchronousClientTests {
    @Test("a global client answers a read and queues a write offline at once")
    func globalClient() async throws {
        let first: [Task] = try await withTimeout(30) {
            try await supabase.from("tasks").select().execute().value
        }
        #expect(first.map(\.title) == ["Buy milk"])
        await supabase.disableNetwork()
        let written = try await supabase.from("tasks").insert(
            Task(id: UUID(), title: "Call Ann", done: false)
        )
        .execute()
        #expect(written.isQueued)
        let offline: [Task] = try await supabase.from("tasks").select().execute().value
        #expect(Set(offline.map(\.title)) == ["Buy milk", "Call Ann"])
        await supabase.enableNetwork()
    }

    @Test("a client made in a synchronous init writes offline before anything opened it, then reads")
    func synchronousInit() async throws {
        let server = InMemoryPostgREST(tables: ["tasks": []], primaryKeys: ["tasks": ["id"]])
        let model = TasksModel(server: server)
        await model.client.disableNetwork()
        // The first call: it opens the store and waits for it.
        let queued = try await withTimeout(30) {
            try await model.client.from("tasks").insert(Task(id: UUID(), title: "Water plants", done: false))
                .execute()
        }
        #expect(queued.isQueued)
        #expect(await server.rows(of: "tasks").isEmpty)
        await model.client.enableNetwork()
        try await withTimeout(30) { try await model.client.waitForPendingWrites() }
        #expect(try await model.tasks().map(\.title) == ["Water plants"])
        await model.client.disableNetwork()
        try await model.add(Task(id: UUID(), title: "Call Ann", done: false))
        #expect(Set(try await model.tasks().map(\.title)) == ["Call Ann", "Water plants"])
        await model.client.enableNetwork()
        try await withTimeout(30) { try await model.client.waitForPendingWrites() }
        #expect(await server.rows(of: "tasks").count == 2)
        await model.client.close()
    }

    @Test("writes queued in an earlier run replay once open() opened the store, with no other call")
    func replayStartsOnOpen() async throws {
        try await withTemporaryFolder("sync-client") { folder in
            let server = InMemoryPostgREST(tables: ["tasks": []], primaryKeys: ["tasks": ["id"]])
            let earlier = TasksModel(server: server, storage: .directory(folder))
            await earlier.client.disableNetwork()
            try await earlier.add(Task(id: UUID(), title: "Buy milk", done: false))
            await earlier.client.close()

            let relaunched = TasksModel(server: server, storage: .directory(folder))
            try await relaunched.client.open()
            try await withTimeout(30) {
                while await server.rows(of: "tasks").isEmpty {
                    try await ContinuousClock().sleep(for: .milliseconds(5))
                }
            }
            #expect(await server.rows(of: "tasks").count == 1)
            await relaunched.client.close()
        }
    }

    @Test("close before anything opened the store: later calls and streams throw ClientError.closed")
    func closeBeforeOpen() async throws {
        try await withTemporaryFolder("sync-client") { folder in
            let model = TasksModel(server: InMemoryPostgREST(), storage: .directory(folder))
            try await withTimeout(30) { await model.client.close() }
            await #expect(throws: ClientError.closed) { try await model.client.open() }
            await #expect(throws: ClientError.closed) { try await model.tasks() }
            await #expect(throws: ClientError.closed) {
                try await model.add(Task(id: UUID(), title: "x", done: false))
            }
            await #expect(throws: ClientError.closed) {
                for try await _ in model.client.pendingMutationCount() {}
            }
            await #expect(throws: ClientError.closed) {
                for try await _ in model.client.from("tasks").select().snapshots() {}
            }
            await #expect(throws: ClientError.closed) {
                for try await _ in model.client.events {}
            }
            // The store was never opened: nothing was written to the folder.
            #expect(!FileManager.default.fileExists(atPath: folder.path))
            await model.client.close()
        }
    }
}
