import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestFilterBuilderTests` for arrays, ranges, JSON, pattern lists and
/// text search, each named after its test function.
@Suite("PostgrestFilterBuilderTests: collections and text search", .timeLimit(.minutes(10)))
struct FilterBuilderCollectionTests {
    static let cases: [WireCase] =
        [
            .read("containsFilter", ["address": #"cs.{"postcode":90210}"#, "select": "*"]) {
                $0.contains("address", value: ["postcode": 90210] as JSONValue)
            },
            .read("textSearchFilter", ["description": "fts(english).programmer", "select": "*"]) {
                $0.textSearch("description", query: "programmer", config: "english")
            },
            // No named `fts(_:query:)` here: `textSearch` without a type is `fts`.
            .read("ftsFilter", ["description": "fts.programmer", "select": "*"]) {
                $0.textSearch("description", query: "programmer")
            },
            .read("containedByFilter", ["roles": "cd.{admin,user}", "select": "*"]) {
                $0.containedBy("roles", value: ["admin", "user"])
            },
            .read(
                "rangeFilters",
                [
                    "age_range": "sl.[18,25)", "fifth_range": "adj.[55,65)", "fourth_range": "nxr.[45,55)",
                    "other_range": "sr.[25,35)", "select": "*", "third_range": "nxl.[35,45)",
                ]
            ) {
                $0.rangeLt("age_range", range: "[18,25)")
                    .rangeGt("other_range", range: "[25,35)")
                    .rangeGte("third_range", range: "[35,45)")
                    .rangeLte("fourth_range", range: "[45,55)")
                    .rangeAdjacent("fifth_range", range: "[55,65)")
            },
            .read("overlapsFilter", ["schedule": "ov.{9:00,17:00}", "select": "*"]) {
                $0.overlaps("schedule", value: ["9:00", "17:00"])
            },
            .read(
                "likeAnyOf quotes patterns with reserved characters (supabase-swift's array-literal quoting)",
                ["name": #"like(any).{"%Smith, John%","NULL","a\"b"," x"}"#, "select": "*"]
            ) {
                $0.likeAnyOf("name", patterns: ["%Smith, John%", "NULL", #"a"b"#, " x"])
            },
        ]

    /// likeAllOfFilter, likeAnyOfFilter, iLikeAllOfFilter and iLikeAnyOfFilter: the `ilike` ones
    /// over upper-case patterns.
    static let patternListCases = PatternList.allCases.map { list in
        let patterns = list.ignoresCase ? ["%TEST%", "%USER%"] : ["%test%", "%user%"]
        let sent = list.ignoresCase ? "{%TEST%,%USER%}" : "{%test%,%user%}"
        return WireCase.read(
            list.rawValue + "Filter", ["name": list.sentOperator + "." + sent, "select": "*"]
        ) {
            list.apply(to: $0, "name", patterns: patterns)
        }
    }

    @Test("sends the request supabase-swift's case expects", arguments: cases + patternListCases)
    func request(_ wireCase: WireCase) async throws {
        try await wireCase.verify()
    }
}
