import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestFilterBuilderTests` for comparisons, lists, negation and logic
/// trees, each named after its test function. Their fixture sends `apikey`, as every request
/// here does.
@Suite("PostgrestFilterBuilderTests: comparisons", .timeLimit(.minutes(10)))
struct FilterBuilderComparisonTests {
    static let cases: [WireCase] = [
        .read("notFilter", ["select": "*", "status": "not.eq.OFFLINE"]) {
            $0.not("status", operator: .eq, value: "OFFLINE")
        },
        .read("orFilter", ["or": "(status.eq.OFFLINE,username.eq.test)", "select": "*"]) {
            $0.or("status.eq.OFFLINE,username.eq.test")
        },
        .read(
            "orFilterWithReferencedTable",
            ["messages.or": "(public.eq.true,recipient_id.eq.1)", "select": "*"]
        ) {
            $0.or("public.eq.true,recipient_id.eq.1", referencedTable: "messages")
        },
        .read("multipleFilters", ["age": "gte.18", "select": "*", "status": "eq.active"]) {
            $0.gte("age", value: 18).eq("status", value: "active")
        },
        .read("likeFilter", ["email": "like.%@example.com", "select": "*"]) {
            $0.like("email", pattern: "%@example.com")
        },
        .read("iLikeFilter", ["email": "ilike.%@EXAMPLE.COM", "select": "*"]) {
            $0.ilike("email", pattern: "%@EXAMPLE.COM")
        },
        // supabase-swift writes `is.NULL`; PostgREST reads an `is` value in any case.
        .read("isFilter", ["deleted_at": "is.null", "select": "*"]) { $0.is("deleted_at", value: nil) },
        .read("inFilter", ["select": "*", "status": "in.(active,pending)"]) {
            $0.in("status", values: ["active", "pending"])
        },
        .read("notInFilter", ["select": "*", "status": "not.in.(archived,deleted)"]) {
            $0.notIn("status", values: ["archived", "deleted"])
        },
        .read(
            "inFilterQuotesValuesWithReservedCharacters",
            ["select": "*", "tags": #"in.("a,b","c(d)",plain)"#]
        ) {
            $0.in("tags", values: ["a,b", "c(d)", "plain"])
        },
        .read("matchFilter", ["role": "eq.admin", "select": "*", "status": "eq.active"]) {
            $0.match(["status": "active", "role": "admin"])
        },
        .read("filterEscapeHatch", ["created_at": "gt.2023-01-01", "select": "*"]) {
            $0.filter("created_at", operator: "gt", value: "2023-01-01")
        },
        .read("neqFilter", ["select": "*", "status": "neq.inactive"]) { $0.neq("status", value: "inactive") },
        .read("gtFilter", ["age": "gt.21", "select": "*"]) { $0.gt("age", value: 21) },
        .read("ltFilter", ["age": "lt.65", "select": "*"]) { $0.lt("age", value: 65) },
        .read("lteFilter", ["age": "lte.65", "select": "*"]) { $0.lte("age", value: 65) },
        // No named `match(_:pattern:)` here: the operator is given by name. supabase-swift sends
        // the pattern's `+` raw, which PostgREST reads as a space; we send `%2B`.
        .read("regexMatchFilter", ["email": #"match.^.+@.+\..+$"#, "select": "*"]) {
            $0.filter("email", operator: "match", value: #"^.+@.+\..+$"#)
        },
        // No named `imatch(_:pattern:)` here: the operator is given by name.
        .read("regexImatchFilter", ["name": "imatch.^john", "select": "*"]) {
            $0.filter("name", operator: "imatch", value: "^john")
        },
        // No named `isDistinct(_:value:)` here: the operator is given by name.
        .read("isDistinctFilter", ["select": "*", "status": "isdistinct.null"]) {
            $0.filter("status", operator: "isdistinct", value: "null")
        },
    ]

    @Test("sends the request supabase-swift's case expects", arguments: cases)
    func request(_ wireCase: WireCase) async throws {
        try await wireCase.verify()
    }
}
