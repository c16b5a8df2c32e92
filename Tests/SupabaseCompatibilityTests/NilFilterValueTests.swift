import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestNilFilterValueTests`: NULL is asked for with `is`, never with
/// `eq`, each named after its test function. Here too an optional is not a `FilterValue`, so
/// `eq("email", value: nil)` does not compile.
@Suite("PostgrestNilFilterValueTests")
struct NilFilterValueTests {
    @Test("isNullSendsIsNull")
    func isNull() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().is("email", value: nil).execute()
        }
        // supabase-swift writes `is.NULL`; PostgREST reads an `is` value in any case.
        try ExpectedRequest(.get, "users", query: ["email": "is.null", "select": "*"]).verify(sent)
    }

    @Test("notIsNullSendsNotIsNull")
    func notIsNull() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().not("email", operator: .is, value: "null").execute()
        }
        try ExpectedRequest(.get, "users", query: ["email": "not.is.null", "select": "*"]).verify(sent)
    }

    @Test("a JSON null passed to eq or neq filters on SQL NULL, not on the text 'null'")
    func jsonNull() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().eq("email", value: JSONValue.null)
                .neq("phone", value: JSONValue.null).match(["team": JSONValue.null]).execute()
        }
        let query: KeyValuePairs = [
            "email": "is.null", "phone": "not.is.null", "select": "*", "team": "is.null",
        ]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("presentValueStillUsesEq")
    func presentValue() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().eq("email", value: "a@b.co").execute()
        }
        try ExpectedRequest(.get, "users", query: ["email": "eq.a@b.co", "select": "*"]).verify(sent)
    }

    @Test("arrayColumnStillAcceptsNullMembers")
    func arrayWithNull() async throws {
        // No optional is a FilterValue here: SQL NULL inside an array is `JSONValue.null`.
        let sent = try await Wire.request {
            try await $0.from("users").select().contains("tags", value: [JSONValue.string("a"), .null])
                .execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "tags": "cs.{a,NULL}"]).verify(sent)
    }
}
