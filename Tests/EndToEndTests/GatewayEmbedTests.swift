import Foundation
import OfflineEngine
import PostgresGateway
import Testing

/// Embedded tables on PostgreSQL: the embed is a subquery run as the request's role, so
/// row-level security applies inside it as on Supabase.
@Suite("Gateway: embedded tables over PostgreSQL", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayEmbedTests {
    static let alice = GatewayEndToEndTests.alice
    static let bob = GatewayEndToEndTests.bob

    private static func get(_ path: String, as user: String) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers["apikey"] = "anon-key"
        headers["Authorization"] = "Bearer " + PostgresGateway.token(userID: user)
        return HTTPRequest(
            method: .get, url: URL(string: GatewayDialectTests.base + path)!, headers: headers, body: nil)
    }

    @Test("an embed shows only the rows the policies let the user read, on either side of the key")
    func rowLevelSecurityInsideEmbeds() async throws {
        let database = try SupabaseDatabase()
        for statement in [
            "CREATE TABLE public.lists (id bigint PRIMARY KEY, name text NOT NULL)",
            "GRANT SELECT ON public.lists TO authenticated",
            "ALTER TABLE public.tasks ADD COLUMN list_id bigint REFERENCES public.lists(id)",
            "INSERT INTO public.lists VALUES (1, 'shared')",
            """
            INSERT INTO public.tasks (id, title, user_id, list_id) VALUES
            (1, 'alice''s', '\(Self.alice)', 1), (2, 'bob''s', '\(Self.bob)', 1)
            """,
        ] {
            try database.admin.execute(statement)
        }
        let gateway = try database.gateway()
        let lists = try await gateway.send(Self.get("lists?select=name,tasks(title)", as: Self.alice))
        #expect(lists.status == 200)
        #expect(
            try JSONText.parse(lists.body)
                == JSONText.parse(#"[{"name":"shared","tasks":[{"title":"alice's"}]}]"#))
        let counted = try await gateway.send(Self.get("lists?select=name,tasks(count)", as: Self.bob))
        #expect(
            try JSONText.parse(counted.body) == JSONText.parse(#"[{"name":"shared","tasks":[{"count":1}]}]"#))
        // The other way: a task embeds its list, and a user reads only their own task.
        let tasks = try await gateway.send(Self.get("tasks?select=title,list:lists(name)", as: Self.bob))
        #expect(
            try JSONText.parse(tasks.body) == JSONText.parse(#"[{"title":"bob's","list":{"name":"shared"}}]"#)
        )
        // `!inner` drops the list for a user whose tasks the policy hides.
        let carol = "00000000-0000-0000-0000-00000000000c"
        let none = try await gateway.send(Self.get("lists?select=name,tasks!inner(title)", as: carol))
        #expect(String(decoding: none.body, as: UTF8.self) == "[]")
    }
}
