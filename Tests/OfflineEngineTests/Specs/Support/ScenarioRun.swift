import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// Plays one scenario on one store: launches a client on a manual clock against the stand-in
/// server, runs the steps in order, and records the first failing step with what it saw.
///
/// Nothing may hang: every wait is under ``wait`` seconds (opening a client, ``openWait``), and
/// teardown releases held requests, leaves the live reads and closes the client under a limit
/// too, so a failing scenario fails in seconds and the next one starts clean.
final class ScenarioRun {
    /// The limit of each wait, in seconds of real time: a step takes milliseconds, and a loaded
    /// CI machine many times that.
    static let wait: Double = 20
    /// The limit of opening a client: the longest run of store calls and hops a scenario makes,
    /// each of which queues behind the whole test run's work on a loaded 2-core machine (runs
    /// met 10 s there, with nothing wrong in the engine).
    static let openWait: Double = 30

    let spec: SpecCase
    let server: InMemoryPostgREST
    let transport: SpecTransport
    let folder: URL?
    var clock = ManualClock()
    var client: OfflineClient?
    /// The live reads open now, by name, each with the read it shows.
    var lists: [String: (read: SpecRead, list: LiveList)] = [:]
    var feed: TestFeed?
    var followedTables: [String]?
    var networkDown = false
    /// Calls the scenario did not await (writes whose request hangs, the feed's follow).
    var background: [Task<Void, Never>] = []

    init(_ spec: SpecCase) {
        self.spec = spec
        server = InMemoryPostgREST(tables: spec.scenario.tables, primaryKeys: spec.scenario.primaryKeys)
        transport = SpecTransport(server: server)
        folder =
            spec.store == .disk
            ? FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString)") : nil
    }

    /// The scenario's failure: which step, and what was seen instead.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func play() async {
        defer { if let folder { try? FileManager.default.removeItem(at: folder) } }
        do {
            try await launch()
            if let user = spec.scenario.user {
                try await guarded("sign in") { [client = try opened()] in
                    try await client.signIn(ScenarioRun.session(user))
                }
            }
            // The session settles first: a restore settling mid-scenario would cut a retry's
            // wait short and race the clock steps.
            try await run(.session(spec.scenario.user))
            for (index, step) in spec.scenario.steps.enumerated() {
                do {
                    try await run(step)
                } catch {
                    Issue.record("step \(index + 1) of \"\(spec.testDescription)\", \(step): \(error)")
                    break
                }
            }
        } catch {
            Issue.record("launching \"\(spec.testDescription)\": \(error)")
        }
        await shutdown()
    }

    static func session(_ user: String) -> AuthSession {
        AuthSession(accessToken: "token-\(user)", userID: user)
    }

    func opened() throws -> OfflineClient {
        guard let client else { throw Failure(description: "no client is open") }
        return client
    }

    /// Opens a client on the scenario's store, with a fresh clock.
    func launch() async throws {
        clock = ManualClock()
        let storage: Storage = folder.map { .directory($0) } ?? .inMemory
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: storage,
            primaryKeys: spec.scenario.primaryKeys, responseTrust: spec.scenario.responseTrust, clock: clock,
            transport: transport)
        configuration.tables = spec.scenario.settings
        let opened = try await guarded("open", within: Self.openWait) { [configuration] in
            try await OfflineClient(configuration: configuration)
        }
        client = opened
        if networkDown { await opened.disableNetwork() }
    }

    /// Closes the client as the app would, keeping it, so later steps see what a closed client does.
    func closeClient() async throws {
        transport.release()
        guard let client else { return }
        try await guarded("close") { await client.close() }
    }

    /// Ends everything the scenario started: held requests go on, the live reads end, the feed
    /// ends, and the client closes, each under a limit.
    func close() async {
        transport.release(forever: true)
        for (_, open) in lists { open.list.stop() }
        feed?.finish()
        for task in background { task.cancel() }
        background = []
        if let client {
            do {
                try await withTimeout(Self.wait) { await client.close() }
            } catch {
                Issue.record("close() of \"\(spec.testDescription)\" did not finish within \(Self.wait) s")
            }
        }
        client = nil
    }

    func shutdown() async {
        await close()
        lists = [:]
    }

    /// Closes the client without draining and opens a new one on the same folder; the live reads
    /// and the feed open again on it, as the app's screens would.
    func relaunch() async throws {
        guard folder != nil else { throw Failure(description: "a relaunch needs the on-disk store") }
        let reads = lists.mapValues(\.read)
        // The old client's held requests end; a hang set for the new launch stays.
        transport.release(keepingRules: true)
        for (_, open) in lists { open.list.stop() }
        feed?.finish()
        for task in background { task.cancel() }
        background = []
        if let client {
            try await guarded("close") { await client.close() }
        }
        client = nil
        try await launch()
        let client = try opened()
        lists = reads.mapValues { read in (read, LiveList(read.query(on: client))) }
        if let followedTables { follow(followedTables) }
    }

    /// Starts following a feed of changes to `tables`.
    func follow(_ tables: [String]) {
        guard let client else { return }
        let feed = TestFeed()
        self.feed = feed
        followedTables = tables
        background.append(Task { try? await client.follow(changes: feed.events, tables: tables) })
    }

    /// Runs `body` under the wait limit, naming what timed out.
    func guarded<T: Sendable>(
        _ what: String, within seconds: Double = ScenarioRun.wait,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await withTimeout(seconds, body)
        } catch let timeout as TimedOut {
            throw Failure(description: "\(what): \(timeout)")
        }
    }
}
