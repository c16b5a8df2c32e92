import Foundation
import OfflineEngine
import Testing

/// The writes and calls of supabase-swift's `BuildURLRequestTests`, each named after its
/// snapshot.
///
/// Two differences hold throughout, both read the same by PostgREST: an insert or upsert body
/// is always an array (one row is `[{...}]`, which inserts the same row as `{...}`), and a write
/// that asks for no rows says `return=minimal` where supabase-swift leaves PostgREST's default
/// (also `minimal`) unsaid.
@Suite("BuildURLRequestTests: writes and calls")
struct BuildURLRequestWriteTests {
    /// supabase-swift's `RequestUser`: `username` is left out of the JSON when `nil`.
    struct RequestUser: Encodable, Sendable {
        var email: String
        var username: String?
    }

    static let twoUsers = [
        RequestUser(email: "johndoe@supabase.io"),
        RequestUser(email: "johndoe2@supabase.io", username: "johndoe2"),
    ]
    static let twoUsersJSON =
        #"[{"email":"johndoe@supabase.io"},{"email":"johndoe2@supabase.io","username":"johndoe2"}]"#

    @Test("insert-new-user")
    func insertOne() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").insert(RequestUser(email: "johndoe@supabase.io")).execute()
        }
        let expected = ExpectedRequest(
            .post, "users", prefer: ["return=minimal"], body: #"[{"email":"johndoe@supabase.io"}]"#)
        try expected.verify(sent)
    }

    @Test("bulk-insert-users")
    func insertMany() async throws {
        let sent = try await Wire.request { try await $0.from("users").insert(Self.twoUsers).execute() }
        let expected = ExpectedRequest(
            .post, "users", query: ["columns": #""email","username""#], prefer: ["return=minimal"],
            body: Self.twoUsersJSON)
        try expected.verify(sent)
    }

    @Test("call-rpc")
    func callWithParameters() async throws {
        let sent = try await Wire.request { try await $0.rpc("test_fcn", params: ["KEY": "VALUE"]).execute() }
        try ExpectedRequest(.post, "rpc/test_fcn", body: #"{"KEY":"VALUE"}"#).verify(sent)
    }

    @Test("call-rpc-without-parameter")
    func callWithoutParameters() async throws {
        let sent = try await Wire.request { try await $0.rpc("test_fcn").execute() }
        // supabase-swift sends no body; we send `{}`, the same no arguments to PostgREST.
        try ExpectedRequest(.post, "rpc/test_fcn", body: "{}").verify(sent)
    }

    @Test("test-upsert-not-ignoring-duplicates")
    func upsertMerging() async throws {
        // supabase-swift's upsert asks for the rows by default; ours must be told. Asked, we
        // also send `select=*`, which is what PostgREST returns anyway.
        let sent = try await Wire.request {
            try await $0.from("users").upsert(
                RequestUser(email: "johndoe@supabase.io"), returning: .representation
            )
            .execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["select": "*"],
            prefer: ["resolution=merge-duplicates", "return=representation"],
            body: #"[{"email":"johndoe@supabase.io"}]"#)
        try expected.verify(sent)
    }

    @Test("bulk-upsert")
    func upsertMany() async throws {
        // As in test-upsert-not-ignoring-duplicates: rows asked for explicitly, with `select=*`.
        let sent = try await Wire.request {
            try await $0.from("users").upsert(Self.twoUsers, returning: .representation).execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["columns": #""email","username""#, "select": "*"],
            prefer: ["resolution=merge-duplicates", "return=representation"], body: Self.twoUsersJSON)
        try expected.verify(sent)
    }

    @Test("select-after-bulk-upsert")
    func upsertManyThenSelect() async throws {
        let users = [RequestUser(email: "johndoe@supabase.io"), RequestUser(email: "johndoe2@supabase.io")]
        let sent = try await Wire.request {
            try await $0.from("users").upsert(users, onConflict: "username").select().execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["columns": #""email""#, "on_conflict": "username", "select": "*"],
            prefer: ["resolution=merge-duplicates", "return=representation"],
            body: #"[{"email":"johndoe@supabase.io"},{"email":"johndoe2@supabase.io"}]"#)
        try expected.verify(sent)
    }

    @Test("test-upsert-ignoring-duplicates")
    func upsertIgnoring() async throws {
        // As in test-upsert-not-ignoring-duplicates: rows asked for explicitly, with `select=*`.
        let sent = try await Wire.request {
            try await $0.from("users")
                .upsert(
                    RequestUser(email: "johndoe@supabase.io"), returning: .representation,
                    ignoreDuplicates: true
                )
                .execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["select": "*"],
            prefer: ["resolution=ignore-duplicates", "return=representation"],
            body: #"[{"email":"johndoe@supabase.io"}]"#)
        try expected.verify(sent)
    }

    @Test("select-after-an-insert")
    func insertThenSelect() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").insert(RequestUser(email: "johndoe@supabase.io")).select("id,email")
                .execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["select": "id,email"], prefer: ["return=representation"],
            body: #"[{"email":"johndoe@supabase.io"}]"#)
        try expected.verify(sent)
    }
}
