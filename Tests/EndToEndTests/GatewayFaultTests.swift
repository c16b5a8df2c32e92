import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// Real HTTP failures between the engine and PostgreSQL: proxies' pages, dropped and lost
/// answers, a server that goes away, a slow answer overtaken by a write.
@Suite("End to end: faults over HTTP", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayFaultTests {
    static let alice = GatewayEndToEndTests.alice

    private static func client(_ local: LocalHTTPServer, clock: any Clock<Duration> = ContinuousClock())
        async throws
        -> OfflineClient
    {
        let client = try await OfflineClient(
            configuration: Configuration(
                url: local.baseURL, apiKey: "anon-key", storage: .inMemory, primaryKeys: ["tasks": ["id"]],
                clock: clock, transport: URLSessionTransport()))
        try await client.signIn(SupabaseDatabase.session(alice))
        return client
    }

    private static func queueTasks(_ ids: ClosedRange<Int>, on client: OfflineClient) async throws {
        await client.disableNetwork()
        for id in ids {
            let row: Row = [
                "id": .number(JSONNumber(id)), "title": .string("task \(id)"), "user_id": .string(alice),
            ]
            _ = try await client.from("tasks").insert(row).execute()
        }
    }

    /// Faults met by the writes of a replay.
    enum ReplayFaults: String, CaseIterable, CustomTestStringConvertible {
        case proxyPages = "two 503 pages and a 520 page, in HTML"
        case lostAnswers =
            "a connection dropped halfway through the answer and an answer lost after the commit"

        var testDescription: String { rawValue }

        func inject(into server: LocalHTTPServer) {
            let isWrite: @Sendable (HTTPRequest) -> Bool = { $0.method == .post }
            switch self {
            case .proxyPages:
                server.inject(.status(503), times: 2, where: isWrite)
                server.inject(.status(520), where: isWrite)
            case .lostAnswers:
                server.inject(.dropMidBody, where: isWrite)
                server.inject(.loseAnswer, where: isWrite)
            }
        }
    }

    @Test(
        "faults on replay: the writes wait and retry on the schedule, and each is applied once, none rejected",
        arguments: ReplayFaults.allCases)
    func replayThroughFaults(_ faults: ReplayFaults) async throws {
        let database = try SupabaseDatabase()
        try await LocalHTTPServer.serving(try database.gateway()) { local in
            let clock = ManualClock()
            let client = try await Self.client(local, clock: clock)
            try await Self.queueTasks(1...3, on: client)
            faults.inject(into: local)
            await client.enableNetwork()
            _ = try await clock.driving { try await first(of: client.pendingMutationCount()) { $0 == 0 } }
            #expect(local.unusedFaults == 0, "every fault was met")
            #expect(try database.tasks().map { $0[0] } == ["1", "2", "3"])
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            await client.close()
        }
    }

    @Test(
        "the server down: a live read goes .stalled, its cause naming no URL, host or value, and .paused with the network known down; the server back: .idle"
    )
    func serverDown() async throws {
        let database = try SupabaseDatabase()
        try await LocalHTTPServer.serving(try database.gateway()) { local in
            let clock = ManualClock()
            let client = try await Self.client(local, clock: clock)
            local.stopAccepting()
            let read = client.from("tasks").select().eq("title", value: "secret-value")
            let stalled = try await clock.driving {
                try await firstSnapshot(of: read) { if case .stalled = $0.refresh { true } else { false } }
            }
            guard case .stalled(let cause) = stalled.refresh else { return }
            let words = "\(cause) \(String(describing: cause))"
            for leak in ["127.0.0.1", "http", ":\(local.port)", "secret-value", "rest/v1"] {
                #expect(!words.contains(leak), "the cause names \(leak): \(words)")
            }
            await client.disableNetwork()
            _ = try await firstSnapshot(of: read) { $0.refresh == .paused }
            try local.resumeAccepting()
            await client.enableNetwork()
            let idle = try await clock.driving { try await firstSnapshot(of: read) { $0.refresh == .idle } }
            #expect(idle.result != nil)
            await client.close()
        }
    }

    @Test("a slow answer overtaken by a write is refused: the list shows the write, as the server holds it")
    func slowAnswerRacesWrite() async throws {
        let database = try SupabaseDatabase()
        try database.admin.execute(
            "INSERT INTO public.tasks (id, title, user_id) VALUES (1, 'old', '\(Self.alice)')")
        let handler = CountingHandler(try database.gateway())
        try await LocalHTTPServer.serving(handler) { local in
            let client = try await Self.client(local)
            let (held, holding) = AsyncStream.makeStream(of: Void.self)
            // The read's answer (the server's rows before the write) goes only once the write returned.
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            local.inject(.held(until: { for await _ in released { return } })) { request in
                guard request.method == .get else { return false }
                holding.yield()
                return true
            }
            let read = client.from("tasks").select().order("id")
            let log = SnapshotLog()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await snapshot in read.snapshots() {
                        log.append(snapshot)
                        if snapshot.result?.rows.count == 2, !snapshot.hasPendingMutations,
                            snapshot.refresh == .idle
                        {
                            return
                        }
                    }
                }
                // Once the read's first answer is being held, the write goes out and lands first.
                _ = try await first(of: held) { _ in true }
                let row: Row = ["id": 9, "title": "new", "user_id": .string(Self.alice)]
                _ = try await client.from("tasks").insert(row).execute()
                log.markWriteReturned()
                release.yield()
                try await group.next()
                group.cancelAll()
            }
            for snapshot in log.afterWrite where snapshot.result != nil {
                #expect(
                    snapshot.result?.rows.contains { $0["id"] == 9 } == true,
                    "a list without the write after it returned")
            }
            #expect(local.unusedFaults == 0, "the read's answer was held")
            #expect(handler.count(.get) >= 2, "the answer older than the write is refused and asked again")
            #expect(try database.tasks().map { $0[0] } == ["1", "9"])
            await client.close()
        }
    }
}
