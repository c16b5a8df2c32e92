import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// The engine against the answers PostgREST really gives, end to end on PostgreSQL: the total
/// of a counted write, a minimal insert into a table the user cannot read, one-object writes,
/// an upsert that only updates (200), empty answers without `Content-Type`, and 401 for a token
/// whose role does not exist.
@Suite(
    "End to end: the engine reads PostgREST's answer shapes", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayAnswerShapeTests {
    static let alice = GatewayEndToEndTests.alice

    private static func task(_ id: Int, _ title: String) -> Row {
        ["id": .number(JSONNumber(id)), "title": .string(title), "user_id": .string(alice)]
    }

    /// A task as an app decodes it.
    struct Task: Decodable, Equatable {
        let id: Int
        let title: String
        let done: Bool
    }

    @Test("an expectingRows() update that reaches no row is a conflict, sent at once and replayed")
    func countedUpdateReachingNoRowIsAConflict() async throws {
        try await withSignedInGatewayClient { client, database, _ in
            try await client.from("tasks").insert(Self.task(1, "one")).execute()
            let refusal = await #expect(throws: PostgrestError.self) {
                try await client.from("tasks").update(["done": true] as Row).eq("id", value: 9)
                    .expectingRows()
                    .execute()
            }
            #expect(refusal?.code == RejectedMutation.conflictCode)
            let reached = try await client.from("tasks").update(["done": true] as Row).eq("id", value: 1)
                .expectingRows().execute()
            #expect(!reached.isQueued)

            await client.disableNetwork()
            try await client.from("tasks").update(["title": "gone"] as Row).eq("id", value: 8).expectingRows()
                .execute()
            await client.enableNetwork()
            let rejected = try await first(of: client.rejectedMutations()) { !$0.isEmpty }
            #expect(rejected.map(\.error.code) == [RejectedMutation.conflictCode])
            #expect(try database.tasks() == [["1", "one", "true", Self.alice]])
        }
    }

    @Test(
        "a minimal insert into an insert-only table (no read policy) is accepted at once and replayed, its row shown as written"
    )
    func insertOnlyTable() async throws {
        let schema = [
            """
            CREATE TABLE public.feedback (
                id bigint PRIMARY KEY, body text NOT NULL, user_id uuid NOT NULL DEFAULT auth.uid())
            """,
            "ALTER TABLE public.feedback ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY send_own ON public.feedback FOR INSERT WITH CHECK (auth.uid() = user_id)",
            // Supabase grants every table to its roles; row-level security decides. No read policy.
            "GRANT SELECT, INSERT ON public.feedback TO authenticated",
        ]
        try await withSignedInGatewayClient(database: schema) { client, database, _ in
            let list = client.from("feedback").select("id,body")
            _ = try await list.fetch()
            let sent = try await client.from("feedback").insert(["id": 1, "body": "great app"] as Row)
                .execute()
            #expect(!sent.isQueued)
            let shown = try await firstSnapshot(of: list) { $0.result?.rows.count == 1 }
            #expect(shown.result?.rows.first?["body"] == "great app")

            await client.disableNetwork()
            try await client.from("feedback").insert(["id": 2, "body": "offline"] as Row).execute()
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            let held = try database.admin.execute("SELECT id::text, body FROM public.feedback ORDER BY id")
            #expect(held == [["1", "great app"], ["2", "offline"]])
        }
    }

    @Test("insert(…).select().single() and update(…).select().single() decode one row, online and queued")
    func singleObjectWrites() async throws {
        try await withSignedInGatewayClient { client, database, _ in
            let inserted: Task = try await client.from("tasks").insert(Self.task(1, "online")).select(
                "id,title,done"
            )
            .single().execute().value
            #expect(inserted == Task(id: 1, title: "online", done: false))
            let updated: Task = try await client.from("tasks").update(["done": true] as Row).eq(
                "id", value: 1
            )
            .select("id,title,done").single().execute().value
            #expect(updated == Task(id: 1, title: "online", done: true))
            let list = client.from("tasks").select("id,title,done").order("id")
            _ = try await list.fetch()

            await client.disableNetwork()
            var row = Self.task(2, "queued")
            row["done"] = false
            let queuedInsert =
                try await client.from("tasks").insert(row).select("id,title,done").single()
                .execute() as WriteResponse<Task>
            #expect(queuedInsert.isQueued && queuedInsert.value == Task(id: 2, title: "queued", done: false))
            let queuedUpdate =
                try await client.from("tasks").update(["title": "renamed"] as Row).eq("id", value: 1)
                .select("id,title,done").single().execute() as WriteResponse<Task>
            #expect(queuedUpdate.isQueued && queuedUpdate.value == Task(id: 1, title: "renamed", done: true))
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            #expect(
                try database.tasks() == [
                    ["1", "renamed", "true", Self.alice], ["2", "queued", "false", Self.alice],
                ])

            let none = await #expect(throws: PostgrestError.self) {
                let _: Task = try await client.from("tasks").update(["done": false] as Row).eq("id", value: 7)
                    .select("id,title,done").single().execute().value
            }
            #expect(none?.code == "PGRST116" && none?.status == 406)
        }
    }

    @Test(
        "an upsert that only updates answers 200 and empty answers carry no Content-Type: both settle the write"
    )
    func upsertThatOnlyUpdates() async throws {
        try await withSignedInGatewayClient { client, database, local in
            try await client.from("tasks").insert(Self.task(1, "first")).execute()
            let gateway = try database.gateway()
            var request = HTTPRequest(
                method: .post, url: local.baseURL.appendingPathComponent("rest/v1/tasks"),
                headers: [
                    "Authorization": "Bearer " + PostgresGateway.token(userID: Self.alice),
                    "apikey": "anon-key",
                    "Prefer": "resolution=merge-duplicates,return=minimal",
                    "Content-Type": "application/json",
                ],
                body: Data(#"{"id":1,"title":"direct","user_id":"\#(Self.alice)"}"#.utf8))
            let direct = try await gateway.send(request)
            #expect(direct.status == 200 && direct.headers["Content-Type"] == nil && direct.body.isEmpty)
            request.headers["Prefer"] = "return=minimal"
            request.body = Data(#"{"id":5,"title":"new","user_id":"\#(Self.alice)"}"#.utf8)
            let created = try await gateway.send(request)
            #expect(created.status == 201 && created.headers["Content-Type"] == nil)

            let online = try await client.from("tasks").upsert(Self.task(1, "merged online")).execute()
            #expect(!online.isQueued)
            await client.disableNetwork()
            try await client.from("tasks").upsert(Self.task(1, "merged queued")).execute()
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            #expect(try database.tasks().first == ["1", "merged queued", "false", Self.alice])
        }
    }

    @Test("a token naming a role that does not exist is 401: the write waits for a session, then replays")
    func unknownRoleWaitsForASession() async throws {
        let badRole = AuthSession(
            accessToken: PostgresGateway.token(userID: Self.alice, role: "no_such_role"), userID: Self.alice)
        try await withSignedInGatewayClient(session: badRole) { client, database, _ in
            let write = try await client.from("tasks").insert(Self.task(1, "waits")).execute()
            #expect(write.isQueued, "a 401 queues the write instead of refusing it")
            _ = try await first(of: client.session) {
                if case .waitingForToken = $0 { return true } else { return false }
            }
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
            #expect(try await first(of: client.pendingMutationCount()) { _ in true } == 1)

            try await client.signIn(SupabaseDatabase.session(Self.alice))
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try database.tasks().map { $0[1] } == ["waits"])
        }
    }
}
