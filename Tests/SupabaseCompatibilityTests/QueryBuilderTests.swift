import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestQueryBuilderTests`, each named after its test function.
///
/// Where a case sets a `Prefer: existing=value` header on the client first, the client-wide
/// header cannot be expressed here; the rest of the case is ported and its own preferences
/// compared.
@Suite("PostgrestQueryBuilderTests", .timeLimit(.minutes(10)))
struct QueryBuilderTests {
    /// supabase-swift's fixture row.
    struct User: Codable, Sendable {
        var id: Int
        var username: String
    }

    @Test("select")
    func selectAll() async throws {
        let server = StubPostgREST(readRows: #"[{"id":1,"username":"supabase"}]"#)
        let (sent, response) = try await Wire.capture(answering: server) { client -> ReadResponse<[User]> in
            try await client.from("users").select().execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*"]).verify(sent)
        #expect(response.value.first?.id == 1)
        #expect(response.value.first?.username == "supabase")
    }

    @Test("selectWithWhitespaceInQuery")
    func selectDropsWhitespace() async throws {
        let sent = try await Wire.request { try await $0.from("users").select("some column").execute() }
        try ExpectedRequest(.get, "users", query: ["select": "somecolumn"]).verify(sent)
    }

    @Test("selectWithQuoteInQuery")
    func selectKeepsQuotes() async throws {
        let sent = try await Wire.request { try await $0.from("users").select(#"some "column""#).execute() }
        try ExpectedRequest(.get, "users", query: ["select": #"some"column""#]).verify(sent)
    }

    @Test("selectWithCount")
    func headWithCount() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select("*", head: true, count: .exact).execute()
        }
        try ExpectedRequest(.head, "users", query: ["select": "*"], prefer: ["count=exact"]).verify(sent)
    }

    @Test("insert")
    func insertManyMinimal() async throws {
        let users = [User(id: 1, username: "supabase"), User(id: 1, username: "supa")]
        let sent = try await Wire.request {
            try await $0.from("users").insert(users, returning: .minimal, count: .estimated).execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["columns": #""id","username""#],
            prefer: ["return=minimal", "count=estimated"],
            body: #"[{"id":1,"username":"supabase"},{"id":1,"username":"supa"}]"#)
        try expected.verify(sent)
    }

    @Test("insertQuotesColumnNameContainingReservedCharacter")
    func insertOneRowWithCommaInKey() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").insert([["a,b": 1]], returning: .minimal).execute()
        }
        // supabase-swift sends `columns="a,b"` for any array; we send `columns` only for several
        // rows, and PostgREST takes one row's keys as its columns.
        try ExpectedRequest(.post, "users", prefer: ["return=minimal"], body: #"[{"a,b":1}]"#).verify(sent)
    }

    @Test("update")
    func updateMinimalPlanned() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").update(["username": "supabase2"], returning: .minimal, count: .planned)
                .eq("id", value: 1).execute()
        }
        let expected = ExpectedRequest(
            .patch, "users", query: ["id": "eq.1"], prefer: ["return=minimal", "count=planned"],
            body: #"{"username":"supabase2"}"#)
        try expected.verify(sent)
    }

    @Test("upsert")
    func upsertManyOnConflict() async throws {
        let users = [User(id: 1, username: "admin"), User(id: 2, username: "supabase")]
        let sent = try await Wire.request {
            try await $0.from("users")
                .upsert(users, onConflict: "username", returning: .minimal, count: .estimated).execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["columns": #""id","username""#, "on_conflict": "username"],
            prefer: ["resolution=merge-duplicates", "return=minimal", "count=estimated"],
            body: #"[{"id":1,"username":"admin"},{"id":2,"username":"supabase"}]"#)
        try expected.verify(sent)
    }

    @Test("upsertIgnoreDuplicates")
    func upsertIgnoring() async throws {
        // supabase-swift's upsert asks for the rows by default; ours must be told, and then
        // also sends `select=*`, what PostgREST returns anyway.
        let sent = try await Wire.request {
            try await $0.from("users")
                .upsert(User(id: 1, username: "admin"), returning: .representation, ignoreDuplicates: true)
                .execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["select": "*"],
            prefer: ["resolution=ignore-duplicates", "return=representation"],
            body: #"[{"id":1,"username":"admin"}]"#)
        try expected.verify(sent)
    }

    @Test("delete")
    func deleteWithCount() async throws {
        // supabase-swift's delete asks for the rows by default; ours must be told (and then
        // sends `select=*`).
        let sent = try await Wire.request {
            try await $0.from("users").delete(returning: .representation, count: .estimated)
                .eq("username", value: "supabase").execute()
        }
        let expected = ExpectedRequest(
            .delete, "users", query: ["select": "*", "username": "eq.supabase"],
            prefer: ["return=representation", "count=estimated"])
        try expected.verify(sent)
    }
}
