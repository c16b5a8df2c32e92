import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

/// The sample's scripted story: a tasks app against a PostgREST server on 127.0.0.1 (in memory),
/// through `URLSessionTransport`, with its store in a temporary folder. Every snapshot and
/// stream value the app receives is printed as it comes.
public struct DemoStory: Sendable {
    let server: InMemoryPostgREST
    let local: LocalHTTPServer
    let folder: URL
    let output: StoryOutput
    /// How many times longer than usual each step may take (see ``run(output:patience:)``).
    var patience = 1.0
    let network = NetworkSwitch()

    static let milk = DemoServer.tasks[0].id
    static let plumber = DemoServer.tasks[1].id

    /// Tells the story; returns when it is over, throws when a step does not happen in time.
    /// `patience` makes each step's time that many times longer (a test under ThreadSanitizer,
    /// which slows everything).
    public static func run(output: StoryOutput = .standard, patience: Double = 1) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-sample-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = await DemoServer.make()
        try await LocalHTTPServer.serving(server) { local in
            try await DemoStory(
                server: server, local: local, folder: folder, output: output, patience: patience
            )
            .tell()
        }
    }

    func tell() async throws {
        output.line("A tasks app against a local PostgREST server at \(local.baseURL.absoluteString).")
        try await session(try await open()) { client, board in
            try await screen(client, board) {
                phase("1. The app opens; nobody is signed in yet.")
                try await board.until("the first list") { $0.snapshot != nil && $0.session == .signedOut }
                phase("2. The demo user signs in: the list is fetched again, as theirs.")
                try await client.signIn(AuthSession(accessToken: "demo-token", userID: "demo-user"))
                try await board.until("the user's rows") {
                    $0.session.userID != nil && $0.snapshot?.isFromCache == false
                }
                phase("3. On another device the user adds a task: the change feed brings it to this list.")
                try await followChanges(client) { feed in
                    let parcel: Row = [
                        "id": "6f1c2a3e-0000-4000-8000-000000000004", "title": "Pick up the parcel",
                        "done": false,
                    ]
                    await server.setRows(await server.rows(of: "tasks") + [parcel], of: "tasks")
                    feed.yield(.change(.insert(parcel, into: "tasks")))
                    try await board.until("the other device's task") {
                        $0.titles.contains("Pick up the parcel")
                    }
                }
            }
            phase("4. The network goes down, and the user opens the list again: saved rows, paused.")
            networkDown()
            try await screen(client, board) {
                try await board.until("Paused") { $0.refresh == .paused }
                phase(
                    "5. Offline, two tasks are added, one is ticked off and one deleted: each waits to sync.")
                for task in [NewTask(title: "Water the plants"), NewTask(title: "Book train tickets")] {
                    try await client.from("tasks").insert(task).execute()
                }
                try await client.from("tasks").update(["done": true]).eq("id", value: Self.milk).execute()
                try await client.from("tasks").delete().eq("id", value: Self.plumber).execute()
                try await board.until("four writes waiting") {
                    $0.pendingCount == 4 && !$0.pendingIDs.isEmpty
                }
            }
        }
        phase("6. The app quits and starts again, still offline: rows, marks and queue come back from disk.")
        try await session(try await open()) { client, board in
            try await screen(client, board) {
                try await board.until("the saved rows and queue") {
                    $0.titles.contains("Water the plants") && $0.pendingCount == 4 && $0.refresh == .paused
                }
                phase("7. The network comes back: the queue replays in order, the marks clear.")
                try networkUp()
                try await board.until("an empty queue, up to date") {
                    $0.pendingCount == 0 && $0.pendingIDs.isEmpty && $0.refresh == .idle && !$0.titles.isEmpty
                }
            }
            phase("8. The server fails for a while (500 pages) as the user opens the list again.")
            // The server fails every read until the list shows Stalled (however many reads ask).
            let failing = Switch(on: true)
            local.inject(.status(500), times: 1_000) { $0.method == .get && failing.isOn }
            try await screen(client, board) {
                try await board.until("Stalled") { if case .stalled = $0.refresh { true } else { false } }
                failing.set(on: false)
                try await board.until("up to date again") { $0.refresh == .idle }
                phase(
                    "9. A task with no title: its first send meets a 503, so it is queued; the server refuses it."
                )
                local.inject(.status(503), times: 1) { $0.method == .post }
                try await client.from("tasks").insert(NewTask(title: "")).execute()
                try await board.until("a rejected write") { !$0.rejected.isEmpty }
                for rejected in await board.state.rejected { try await client.dismissRejected(rejected.id) }
                try await board.until("no rejected write") { $0.rejected.isEmpty }
                phase("10. Offline again, the demo user adds a task; then Ann signs in on this device.")
                networkDown()
                try await client.from("tasks").insert(NewTask(title: "Renew passport")).execute()
                try await board.until("the user's waiting task") { $0.titles.contains("Renew passport") }
                try await client.signIn(AuthSession(accessToken: "ann-token", userID: "ann"))
                try await board.until("Ann's list, without the demo user's task") {
                    $0.session.userID == "ann" && !$0.titles.contains("Renew passport")
                        && $0.pendingCount == 0
                }
                try networkUp()
                try await board.until("Ann's rows from the server") {
                    $0.refresh == .idle && $0.snapshot?.isFromCache == false
                }
                phase("11. Ann signs out, and the app clears the local data.")
                try await client.signOut()
                try await client.clearLocalData()
                try await board.until("a cleared, signed-out app") {
                    $0.session == .signedOut && $0.pendingCount == 0
                }
            }
        }
        phase("The server holds:")
        for row in await serverRows() { output.line(row) }
        output.line()
        output.line("Done.")
    }

    // MARK: The app's parts

    /// Opens the app's client on the sample's store and network.
    private func open() async throws -> OfflineClient {
        var configuration = Configuration(
            url: local.baseURL, apiKey: "demo-anon-key", storage: .directory(folder),
            networkAvailability: network.availability(), transport: URLSessionTransport())
        configuration.tables = NewTask.tableSettings
        return try await OfflineClient(configuration: configuration)
    }

    /// Runs `body` with a board following `client`, then closes the client (the app quits).
    private func session(
        _ client: OfflineClient, _ body: (OfflineClient, Board) async throws -> Void
    ) async throws {
        let board = await Board(client: client, output: output, patience: patience)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await board.follow(client) }
            do {
                try await body(client, board)
            } catch {
                await client.close()
                throw error
            }
            await client.close()
            try await group.waitForAll()
        }
    }

    /// Shows the task list while `body` runs (the list screen is open), then leaves it.
    private func screen(_ client: OfflineClient, _ board: Board, _ body: () async throws -> Void) async throws
    {
        let list = client.from("tasks").select("id,title,done").order("title")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await board.showList(list) }
            defer { group.cancelAll() }
            try await body()
        }
    }

    /// Follows a change feed of `tasks` while `body` runs, as an app's bridge from Realtime would
    /// (here the story plays the server's side of the feed).
    private func followChanges(
        _ client: OfflineClient, _ body: (AsyncStream<ChangeFeedEvent>.Continuation) async throws -> Void
    ) async throws {
        let feed = AsyncStream.makeStream(of: ChangeFeedEvent.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.follow(changes: feed.stream, tables: ["tasks"]) }
            feed.continuation.yield(.subscribed)
            do {
                try await body(feed.continuation)
            } catch {
                feed.continuation.finish()
                throw error
            }
            feed.continuation.finish()
            try await group.waitForAll()
        }
    }

    private func phase(_ text: String) {
        output.heading(text)
    }

    /// The network goes down: the server stops answering, and the client is told.
    private func networkDown() {
        local.stopAccepting()
        network.set(up: false)
    }

    /// The network comes back.
    private func networkUp() throws {
        try local.resumeAccepting()
        network.set(up: true)
    }

    private func serverRows() async -> [String] {
        await server.rows(of: "tasks").map { row in
            "  [\(row["done"] == .bool(true) ? "x" : " ")]  \(row["title"]?.stringValue ?? "")"
        }
    }
}

/// A flag the story flips and the server's fault rule reads.
final class Switch: Sendable {
    private let state: Mutex<Bool>

    init(on: Bool) {
        state = Mutex(on)
    }

    var isOn: Bool { state.withLock { $0 } }

    func set(on: Bool) {
        state.withLock { $0 = on }
    }
}
