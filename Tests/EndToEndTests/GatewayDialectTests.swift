import Foundation
import OfflineEngine
import PostgresGateway
import Testing

/// The gateway answers PostgREST's dialect as PostgREST does, PostgreSQL doing the work:
/// statuses, error bodies, upserts, ranges and counts.
@Suite("Gateway: PostgREST's dialect over PostgreSQL", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayDialectTests {
    static let alice = GatewayEndToEndTests.alice
    static let base = "http://127.0.0.1:1/rest/v1/"

    /// The body of an insert of one task, `[{"id":…,"title":…,"user_id":…}]`.
    private static func taskBody(_ id: Int, _ title: String, owner: String = alice) -> String {
        #"[{"id":\#(id),"title":"\#(title)","user_id":"\#(owner)"}]"#
    }

    private static func request(
        _ method: HTTPMethod, _ path: String, body: String? = nil, prefer: String? = nil,
        token: String? = PostgresGateway.token(userID: alice), headers extra: [String: String] = [:]
    ) -> HTTPRequest {
        var headers = HTTPHeaders(extra)
        headers["apikey"] = "anon-key"
        headers["Authorization"] = "Bearer " + (token ?? "anon-key")
        if let prefer { headers["Prefer"] = prefer }
        if body != nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(
            method: method, url: URL(string: base + path)!, headers: headers, body: body.map { Data($0.utf8) }
        )
    }

    @Test(
        "PostgREST's statuses and error bodies: 409 for 23505, 403 for 42501 with a token and 401 without, 400 for 22P02 and 42703, 404 for an unknown table"
    )
    func errors() async throws {
        let database = try SupabaseDatabase()
        let gateway = try database.gateway()
        let row = Self.taskBody(1, "a")
        #expect(try await gateway.send(Self.request(.post, "tasks", body: row)).status == 201)
        let duplicate = try await gateway.send(Self.request(.post, "tasks", body: row))
        #expect(duplicate.status == 409)
        let body = String(decoding: duplicate.body, as: UTF8.self)
        // With row-level security on, PostgreSQL leaves the key out of the detail, as on Supabase.
        #expect(body.contains(#""code":"23505""#) && body.contains("duplicate key"), "\(body)")
        let other = Self.taskBody(2, "b", owner: GatewayEndToEndTests.bob)
        #expect(try await gateway.send(Self.request(.post, "tasks", body: other)).status == 403)
        #expect(try await gateway.send(Self.request(.post, "tasks", body: other, token: nil)).status == 401)
        let badInput = try await gateway.send(Self.request(.get, "tasks?id=eq.abc"))
        #expect(badInput.status == 400 && String(decoding: badInput.body, as: UTF8.self).contains("22P02"))
        let badColumn = try await gateway.send(Self.request(.get, "tasks?nope=eq.1"))
        #expect(badColumn.status == 400 && String(decoding: badColumn.body, as: UTF8.self).contains("42703"))
        #expect(try await gateway.send(Self.request(.get, "no_such_table")).status == 404)
        // An embed no foreign key reaches is PostgREST's PGRST200; a spread is not translated.
        let embedded = try await gateway.send(Self.request(.get, "tasks?select=id,owner(name)"))
        #expect(
            embedded.status == 400 && String(decoding: embedded.body, as: UTF8.self).contains("PGRST200"))
        let spread = try await gateway.send(Self.request(.get, "tasks?select=id,...owner(name)"))
        #expect(
            spread.status == 400 && String(decoding: spread.body, as: UTF8.self).contains("does not support"))
        for (path, prefer, accept) in [
            ("tasks", "tx=rollback", "application/json"), ("tasks?select=id", nil, "text/csv"),
            ("tasks?title=fts.word", nil, "application/json"),
            ("tasks?order=data->>x", nil, "application/json"),
        ] {
            let refused = try await gateway.send(
                Self.request(
                    path.contains("select") || prefer == nil ? .get : .post, path,
                    body: prefer == nil ? nil : row,
                    prefer: prefer, headers: ["Accept": accept]))
            #expect(refused.status == 400, "\(path) \(prefer ?? "") \(accept)")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("does not support"))
        }
        #expect(try database.tasks().count == 1, "a refused write changes nothing")
        let notJWT = try await gateway.send(Self.request(.get, "tasks", token: "not-a-jwt"))
        #expect(notJWT.status == 401)
    }

    @Test("reads: select with renames, filters, order, Range and count=exact; RLS hides other users' rows")
    func reads() async throws {
        let database = try SupabaseDatabase()
        try database.admin.execute(
            """
            INSERT INTO tasks (id, title, done, user_id) VALUES
            (1, 'one', false, '\(Self.alice)'), (2, 'two', true, '\(Self.alice)'),
            (3, 'three', false, '\(Self.alice)'), (4, 'bob''s', false, '\(GatewayEndToEndTests.bob)')
            """)
        let gateway = try database.gateway()
        let page = try await gateway.send(
            Self.request(
                .get, "tasks?select=key:id,title&order=id.desc", prefer: "count=exact",
                headers: ["Range": "0-1"]))
        #expect(page.status == 206)
        #expect(page.headers["Content-Range"] == "0-1/3")
        #expect(
            try JSONText.parse(page.body)
                == (try JSONText.parse(#"[{"key":3,"title":"three"},{"key":2,"title":"two"}]"#)))
        let filtered = try await gateway.send(
            Self.request(.get, "tasks?select=id&or=(done.is.true,title.like.th*)&order=id"))
        #expect(try JSONText.parse(filtered.body) == (try JSONText.parse(#"[{"id":2},{"id":3}]"#)))
        let open = try await gateway.send(
            Self.request(.get, "tasks?select=id&order=id", headers: ["Range": "1-"]))
        #expect(try JSONText.parse(open.body) == (try JSONText.parse(#"[{"id":2},{"id":3}]"#)))
        let unreadable = try await gateway.send(
            Self.request(.get, "tasks?select=id&order=id", headers: ["Range": "bytes=0-1,5-6"]))
        #expect(
            try JSONText.parse(unreadable.body) == (try JSONText.parse(#"[{"id":1},{"id":2},{"id":3}]"#)),
            "a Range PostgREST cannot read is ignored there: every row")
        let anonymous = try await gateway.send(Self.request(.get, "tasks", token: nil))
        #expect(anonymous.status == 401, "anon has no grant on tasks")
    }

    @Test(
        "upserts merge or ignore on the primary key or on_conflict; missing=default takes the column's default; return=representation projects select"
    )
    func upserts() async throws {
        let database = try SupabaseDatabase()
        let gateway = try database.gateway()
        _ = try await gateway.send(Self.request(.post, "tasks", body: Self.taskBody(1, "a")))
        let merged = try await gateway.send(
            Self.request(
                .post, "tasks?select=id,title",
                body: Self.taskBody(1, "merged"),
                prefer: "resolution=merge-duplicates,return=representation"))
        #expect(merged.status == 200, "a merge that inserted no row is 200 on PostgREST")
        #expect(String(decoding: merged.body, as: UTF8.self) == #"[{"id":1,"title":"merged"}]"#)
        _ = try await gateway.send(
            Self.request(
                .post, "tasks?on_conflict=id",
                body: Self.taskBody(1, "ignored"),
                prefer: "resolution=ignore-duplicates"))
        let defaulted = try await gateway.send(
            Self.request(
                .post, "tasks?columns=id,title,done,user_id",
                body: Self.taskBody(2, "d"),
                prefer: "missing=default,return=representation"))
        #expect(defaulted.status == 201)
        #expect(
            try database.tasks() == [["1", "merged", "false", Self.alice], ["2", "d", "false", Self.alice]])
        let patched = try await gateway.send(
            Self.request(.patch, "tasks?id=eq.2", body: #"{"done":true}"#, prefer: "return=representation"))
        #expect(
            patched.status == 200 && String(decoding: patched.body, as: UTF8.self).contains(#""done":true"#))
        #expect(try await gateway.send(Self.request(.delete, "tasks?id=eq.1")).status == 204)
        #expect(try database.tasks().map { $0[0] } == ["2"])
    }

    @Test("Content-Profile and Accept-Profile name the schema a write and a read go to")
    func profiles() async throws {
        let database = try SupabaseDatabase()
        for statement in [
            "CREATE SCHEMA private", "CREATE TABLE private.notes (id integer PRIMARY KEY, body text)",
            "GRANT USAGE ON SCHEMA private TO authenticated", "GRANT ALL ON private.notes TO authenticated",
        ] {
            try database.admin.execute(statement)
        }
        let gateway = try database.gateway()
        let written = try await gateway.send(
            Self.request(
                .post, "notes", body: #"[{"id":1,"body":"kept apart"}]"#,
                headers: ["Content-Profile": "private"]))
        #expect(written.status == 201)
        let read = try await gateway.send(Self.request(.get, "notes", headers: ["Accept-Profile": "private"]))
        #expect(try JSONText.parse(read.body) == (try JSONText.parse(#"[{"id":1,"body":"kept apart"}]"#)))
        #expect(try await gateway.send(Self.request(.get, "notes")).status == 404, "no public.notes")
    }
}
