import Foundation
import OfflineEngine
import Testing

/// The reads of supabase-swift's `BuildURLRequestTests`, each named after its snapshot; the
/// expected requests are those snapshots, as PostgREST reads them.
@Suite("BuildURLRequestTests: reads", .timeLimit(.minutes(10)))
struct BuildURLRequestReadTests {
    static let plusInValue = "Cigányka-ér (0+400 cskm) vízrajzi állomás"

    static let cases: [WireCase] =
        [
            .read(
                "select-all-users-where-email-ends-with-supabase-co",
                ["email": "like.%@supabase.co", "select": "*"]
            ) {
                $0.like("email", pattern: "%@supabase.co")
            },
            .read("test-in-filter", ["id": "in.(1,2,3)", "select": "*"], from: "todos") {
                $0.in("id", values: [1, 2, 3])
            },
            WireCase(
                "test-contains-filter-with-dictionary",
                sends: ExpectedRequest(
                    .get, "users", query: ["address": #"cs.{"postcode":90210}"#, "select": "name"])
            ) {
                try await $0.from("users").select("name").contains(
                    "address", value: ["postcode": 90210] as JSONValue
                )
                .execute()
            },
            .read("test-contains-filter-with-array", ["name": "cs.{is:online,faction:red}", "select": "*"]) {
                $0.contains("name", value: ["is:online", "faction:red"])
            },
            WireCase(
                "test-or-filter-with-referenced-table",
                sends: ExpectedRequest(
                    .get, "users",
                    query: ["messages.or": "(public.eq.true,recipient_id.eq.1)", "select": "*,messages(*)"])
            ) {
                try await $0.from("users").select("*, messages(*)")
                    .or("public.eq.true,recipient_id.eq.1", referencedTable: "messages").execute()
            },
            // supabase-swift sends this `+` raw, which PostgREST reads as a space; we send `%2B`.
            .read("query-with-character", ["id": "eq." + plusInValue, "select": "*"]) {
                $0.eq("id", value: plusInValue)
            },
            // supabase-swift sends the offset's `+` raw (read as a space by PostgREST); we send `%2B`.
            .read(
                "query-with-timestamptz",
                [
                    "order": "received_at.asc.nullslast",
                    "received_at": "gt.2023-03-23T15:50:30.511743+00:00",
                    "select": "*",
                ],
                from: "tasks"
            ) {
                $0.gt("received_at", value: "2023-03-23T15:50:30.511743+00:00").order("received_at")
            },
            WireCase(
                "query-non-default-schema",
                sends: ExpectedRequest(.get, "objects", query: ["select": "*"], acceptProfile: "storage")
            ) {
                try await $0.schema("storage").from("objects").select().execute()
            },
            // supabase-swift writes `is.NULL`; PostgREST reads an `is` value in any case.
            .read("query-if-nil-value", ["email": "is.null", "select": "*"]) { $0.is("email", value: nil) },
            .read("containedBy-using-array", ["id": "cd.{a,b,c}", "select": "*"]) {
                $0.containedBy("id", value: ["a", "b", "c"])
            },
            .read("containedBy-using-range", ["age": "cd.[10,20]", "select": "*"]) {
                $0.containedBy("age", value: "[10,20]")
            },
            .read("containedBy-using-json", ["select": "*", "userMetadata": #"cd.{"age":18}"#]) {
                $0.containedBy("userMetadata", value: ["age": 18] as JSONValue)
            },
            // supabase-swift sends the leading `+` raw, which PostgREST reads as a space; we send `%2B`.
            .read("filter-starting-with-non-alphanumeric", ["select": "*", "to": "eq.+16505555555"]) {
                $0.eq("to", value: "+16505555555")
            },
            .read("filter-using-Date", ["created_at": "gt.1970-01-01T00:00:00.000Z", "select": "*"]) {
                $0.gt("created_at", value: Date(timeIntervalSince1970: 0))
            },
        ]

    /// likeAllOf, likeAnyOf, iLikeAllOf and iLikeAnyOf, each named after its snapshot.
    static let patternListCases = PatternList.allCases.map { list in
        WireCase.read(
            list.rawValue, ["email": list.sentOperator + ".{%@supabase.io,%@supabase.com}", "select": "*"]
        ) {
            list.apply(to: $0, "email", patterns: ["%@supabase.io", "%@supabase.com"])
        }
    }

    @Test("sends the request supabase-swift's snapshot shows", arguments: cases + patternListCases)
    func request(_ wireCase: WireCase) async throws {
        try await wireCase.verify()
    }

    @Test("test-all-filters-and-count")
    func everyOperator() async throws {
        let operators = [
            "eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch", "is", "isdistinct",
            "in",
            "cs", "cd", "sl", "sr", "nxl", "nxr", "adj", "ov", "fts", "plfts", "phfts", "wfts",
        ]
        let sent = try await Wire.request { client in
            var read = client.from("todos").select()
            for op in operators { read = read.filter("column", operator: op, value: "Some value") }
            return try await read.execute()
        }
        var expected = ExpectedRequest(.get, "todos", query: ["select": "*"])
        expected.query += operators.map { QueryPair(name: "column", value: $0 + ".Some value") }
        try expected.verify(sent)
    }
}
