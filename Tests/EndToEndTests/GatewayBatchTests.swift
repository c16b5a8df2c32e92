import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// Batched replay against PostgreSQL: one bulk request per run of inserts, and each write keeps
/// its own outcome when the server refuses the batch.
@Suite("End to end: batched replay on PostgreSQL", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayBatchTests {
    static let alice = GatewayEndToEndTests.alice
    static let bob = GatewayEndToEndTests.bob

    /// A journal row: its id made from `n`, and `n`.
    private static func entry(_ n: Int, owner: String? = nil) -> Row {
        var row: Row = ["id": .string(id(n)), "n": .number(JSONNumber(n))]
        if let owner { row["user_id"] = .string(owner) }
        return row
    }

    private static func id(_ n: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012d", n)
    }

    @Test(
        "a batch with a row row-level security refuses and a row that breaks a unique key: exactly those two are rejected with their codes, the others land once, in order"
    )
    func refusedRowsAreFound() async throws {
        let database = try SupabaseDatabase()
        // Row 6's key is taken on the server already.
        _ = try database.admin.execute(
            "INSERT INTO public.journal (id, n, user_id) VALUES ($1, 600, $2)", [Self.id(6), Self.alice])
        let gateway = RecordingTransport(wrapping: try database.gateway())
        try await LocalHTTPServer.serving(gateway) { local in
            let client = try await gatewayClient(local)
            try await client.signIn(SupabaseDatabase.session(Self.alice))
            await client.disableNetwork()
            var ids: [Int: UUID] = [:]
            for n in 1...10 {
                // Every row names its owner, so that all share one request's columns.
                let row = Self.entry(n, owner: n == 3 ? Self.bob : Self.alice)
                let result = try await client.from("journal").insert(row).execute()
                guard case .queued(let pending) = result.outcome else {
                    Issue.record("write \(n) was not queued")
                    return
                }
                ids[n] = pending.id
            }
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            let rejected = try await first(of: client.rejectedMutations()) { $0.count >= 2 }
            #expect(rejected.count == 2)
            #expect(rejected.first { $0.id == ids[3] }?.error.code == "42501")
            #expect(rejected.first { $0.id == ids[6] }?.error.code == "23505")
            let applied = try database.admin.execute("SELECT n FROM public.journal ORDER BY seq")
            #expect(applied.map { $0[0] } == ["600", "1", "2", "4", "5", "7", "8", "9", "10"])
            // The first request carried all ten rows.
            let first = try #require(gateway.requests.first { $0.method == .post }?.body)
            #expect((try JSONSerialization.jsonObject(with: first) as? [Any])?.count == 10)
            await client.close()
        }
    }

    @Test("a batch whose answer was lost is applied once")
    func lostAnswerAppliedOnce() async throws {
        let database = try SupabaseDatabase()
        let gateway = RecordingTransport(wrapping: try database.gateway())
        try await LocalHTTPServer.serving(gateway) { local in
            local.inject(.loseAnswer, where: { $0.method == .post })
            let client = try await gatewayClient(local)
            try await client.signIn(SupabaseDatabase.session(Self.alice))
            await client.disableNetwork()
            for n in 1...5 {
                _ = try await client.from("journal").insert(Self.entry(n)).execute()
            }
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            let applied = try database.admin.execute("SELECT n FROM public.journal ORDER BY seq")
            #expect(applied.map { $0[0] } == ["1", "2", "3", "4", "5"])
            // The lost batch, then its resend (refused: the rows are there), then the reads.
            #expect(gateway.requests.filter { $0.method == .post }.count == 2)
            await client.close()
        }
    }

    @Test(
        "with tables in flight at once, a todo that overtook its list and met the foreign key goes again after it: nothing rejected"
    )
    func foreignKeyOvertaken() async throws {
        let database = try SupabaseDatabase(laidOutBy: [
            "CREATE TABLE public.lists (id bigint PRIMARY KEY, name text NOT NULL)",
            "CREATE TABLE public.todos (id bigint PRIMARY KEY, list_id bigint NOT NULL REFERENCES public.lists)",
            "GRANT SELECT, INSERT ON public.lists, public.todos TO authenticated",
        ])
        let gateway = RecordingTransport(wrapping: try database.gateway())
        let overtaking = OvertakingTransport(wrapping: gateway, holding: "lists", until: "todos")
        try await LocalHTTPServer.serving(overtaking) { local in
            var configuration = Configuration(
                url: local.baseURL, apiKey: "anon-key", storage: .inMemory, transport: URLSessionTransport())
            configuration.replayBatching = ReplayBatching(tablesInFlight: 2)
            let client = try await OfflineClient(configuration: configuration)
            try await client.signIn(SupabaseDatabase.session(Self.alice))
            await client.disableNetwork()
            _ = try await client.from("lists").insert(["id": 1, "name": "groceries"] as Row).execute()
            for id in [10, 11] {
                _ = try await client.from("todos").insert(
                    ["id": .number(JSONNumber(id)), "list_id": 1] as Row
                )
                .execute()
            }
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            let todos = try database.admin.execute("SELECT id::text FROM public.todos ORDER BY id")
            #expect(todos.map { $0[0] } == ["10", "11"])
            // The todos' batch went before its list was answered (refused, kept), then again.
            #expect(gateway.requests.filter { $0.url.path.hasSuffix("/todos") }.count == 2)
            await client.close()
        }
    }
}
