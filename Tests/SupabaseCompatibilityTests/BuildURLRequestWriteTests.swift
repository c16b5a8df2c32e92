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
@Suite("BuildURLRequestTests: writes and calls", .timeLimit(.minutes(10)))
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

    static let johnDoe = RequestUser(email: "johndoe@supabase.io")
    static let johnDoeJSON = #"[{"email":"johndoe@supabase.io"}]"#
    static let merging: Set = ["resolution=merge-duplicates", "return=representation"]

    static let cases: [WireCase] = [
        WireCase(
            "insert-new-user",
            sends: ExpectedRequest(.post, "users", prefer: ["return=minimal"], body: johnDoeJSON)
        ) {
            try await $0.from("users").insert(johnDoe).execute()
        },
        WireCase(
            "bulk-insert-users",
            sends: ExpectedRequest(
                .post, "users", query: ["columns": #""email","username""#], prefer: ["return=minimal"],
                body: twoUsersJSON)
        ) { try await $0.from("users").insert(twoUsers).execute() },
        WireCase("call-rpc", sends: ExpectedRequest(.post, "rpc/test_fcn", body: #"{"KEY":"VALUE"}"#)) {
            try await $0.rpc("test_fcn", params: ["KEY": "VALUE"]).execute()
        },
        // supabase-swift sends no body; we send `{}`, the same no arguments to PostgREST.
        WireCase("call-rpc-without-parameter", sends: ExpectedRequest(.post, "rpc/test_fcn", body: "{}")) {
            try await $0.rpc("test_fcn").execute()
        },
        // supabase-swift's upsert asks for the rows by default; ours must be told. Asked, we also
        // send `select=*`, which is what PostgREST returns anyway.
        WireCase(
            "test-upsert-not-ignoring-duplicates",
            sends: ExpectedRequest(.post, "users", query: ["select": "*"], prefer: merging, body: johnDoeJSON)
        ) { try await $0.from("users").upsert(johnDoe, returning: .representation).execute() },
        // As in test-upsert-not-ignoring-duplicates: rows asked for explicitly, with `select=*`.
        WireCase(
            "bulk-upsert",
            sends: ExpectedRequest(
                .post, "users", query: ["columns": #""email","username""#, "select": "*"], prefer: merging,
                body: twoUsersJSON)
        ) { try await $0.from("users").upsert(twoUsers, returning: .representation).execute() },
        WireCase(
            "select-after-bulk-upsert",
            sends: ExpectedRequest(
                .post, "users", query: ["columns": #""email""#, "on_conflict": "username", "select": "*"],
                prefer: merging, body: #"[{"email":"johndoe@supabase.io"},{"email":"johndoe2@supabase.io"}]"#)
        ) {
            let users = [
                RequestUser(email: "johndoe@supabase.io"), RequestUser(email: "johndoe2@supabase.io"),
            ]
            _ = try await $0.from("users").upsert(users, onConflict: "username").select().execute()
        },
        // As in test-upsert-not-ignoring-duplicates: rows asked for explicitly, with `select=*`.
        WireCase(
            "test-upsert-ignoring-duplicates",
            sends: ExpectedRequest(
                .post, "users", query: ["select": "*"],
                prefer: ["resolution=ignore-duplicates", "return=representation"], body: johnDoeJSON)
        ) {
            try await $0.from("users").upsert(johnDoe, returning: .representation, ignoreDuplicates: true)
                .execute()
        },
        WireCase(
            "select-after-an-insert",
            sends: ExpectedRequest(
                .post, "users", query: ["select": "id,email"], prefer: ["return=representation"],
                body: johnDoeJSON)
        ) { try await $0.from("users").insert(johnDoe).select("id,email").execute() },
    ]

    @Test("sends the request supabase-swift's snapshot shows", arguments: cases)
    func request(_ wireCase: WireCase) async throws {
        try await wireCase.verify()
    }
}
