import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestBuilderTests` on the request `execute` sends (`HEAD`, a count, a
/// schema), each named after its test function. supabase-swift passes `head` and `count` to
/// `execute(options:)`; here they are `select`'s arguments.
@Suite("PostgrestBuilderTests", .timeLimit(.minutes(10)))
struct BuilderExecuteTests {
    @Test("executeWithHead")
    func head() async throws {
        let sent = try await Wire.request { try await $0.from("users").select("*", head: true).execute() }
        try ExpectedRequest(.head, "users", query: ["select": "*"]).verify(sent)
    }

    @Test("executeWithCount")
    func count() async throws {
        let sent = try await Wire.request { try await $0.from("users").select("*", count: .exact).execute() }
        try ExpectedRequest(.get, "users", query: ["select": "*"], prefer: ["count=exact"]).verify(sent)
    }

    @Test("executeWithCustomSchema")
    func schemaRead() async throws {
        let sent = try await Wire.request { try await $0.schema("private").from("users").select().execute() }
        try ExpectedRequest(.get, "users", query: ["select": "*"], acceptProfile: "private").verify(sent)
    }

    @Test("executeWithCustomSchemaAndHeadMethod")
    func schemaHead() async throws {
        let sent = try await Wire.request {
            try await $0.from("users", schema: "private").select("*", head: true).execute()
        }
        try ExpectedRequest(.head, "users", query: ["select": "*"], acceptProfile: "private").verify(sent)
    }

    @Test("executeWithCustomSchemaAndPostMethod")
    func schemaInsert() async throws {
        let sent = try await Wire.request {
            try await $0.schema("private").from("users").insert(["username": "test"]).execute()
        }
        // One row is sent as a one-element array, and `return=minimal` (PostgREST's default) is
        // said rather than left out.
        let expected = ExpectedRequest(
            .post, "users", prefer: ["return=minimal"], contentProfile: "private",
            body: #"[{"username":"test"}]"#)
        try expected.verify(sent)
    }
}
