import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestNilFilterValueTests`: NULL is asked for with `is`, never with
/// `eq`, each named after its test function. Here too an optional is not a `FilterValue`, so
/// `eq("email", value: nil)` does not compile.
@Suite("PostgrestNilFilterValueTests", .timeLimit(.minutes(10)))
struct NilFilterValueTests {
    static let cases: [WireCase] = [
        // supabase-swift writes `is.NULL`; PostgREST reads an `is` value in any case.
        .read("isNullSendsIsNull", ["email": "is.null", "select": "*"]) { $0.is("email", value: nil) },
        .read("notIsNullSendsNotIsNull", ["email": "not.is.null", "select": "*"]) {
            $0.not("email", operator: .is, value: "null")
        },
        .read(
            "a JSON null passed to eq or neq filters on SQL NULL, not on the text 'null'",
            ["email": "is.null", "phone": "not.is.null", "select": "*", "team": "is.null"]
        ) {
            $0.eq("email", value: JSONValue.null).neq("phone", value: JSONValue.null)
                .match(["team": JSONValue.null])
        },
        .read("presentValueStillUsesEq", ["email": "eq.a@b.co", "select": "*"]) {
            $0.eq("email", value: "a@b.co")
        },
        // No optional is a FilterValue here: SQL NULL inside an array is `JSONValue.null`.
        .read("arrayColumnStillAcceptsNullMembers", ["select": "*", "tags": "cs.{a,NULL}"]) {
            $0.contains("tags", value: [JSONValue.string("a"), .null])
        },
    ]

    @Test("sends the request supabase-swift's case expects", arguments: cases)
    func request(_ wireCase: WireCase) async throws {
        try await wireCase.verify()
    }
}
