import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestFilterBuilderTests` for arrays, ranges, JSON, pattern lists and
/// text search, each named after its test function.
@Suite("PostgrestFilterBuilderTests: collections and text search")
struct FilterBuilderCollectionTests {
    @Test("containsFilter")
    func containsObject() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().contains("address", value: ["postcode": 90210] as JSONValue)
                .execute()
        }
        try ExpectedRequest(.get, "users", query: ["address": #"cs.{"postcode":90210}"#, "select": "*"])
            .verify(sent)
    }

    @Test("textSearchFilter")
    func textSearchWithConfig() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().textSearch(
                "description", query: "programmer", config: "english"
            )
            .execute()
        }
        try ExpectedRequest(.get, "users", query: ["description": "fts(english).programmer", "select": "*"])
            .verify(sent)
    }

    @Test("ftsFilter")
    func textSearchPlain() async throws {
        // No named `fts(_:query:)` here: `textSearch` without a type is `fts`.
        let sent = try await Wire.request {
            try await $0.from("users").select().textSearch("description", query: "programmer").execute()
        }
        try ExpectedRequest(.get, "users", query: ["description": "fts.programmer", "select": "*"]).verify(
            sent)
    }

    @Test("containedByFilter")
    func containedByArray() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().containedBy("roles", value: ["admin", "user"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["roles": "cd.{admin,user}", "select": "*"]).verify(sent)
    }

    @Test("rangeFilters")
    func ranges() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select()
                .rangeLt("age_range", range: "[18,25)")
                .rangeGt("other_range", range: "[25,35)")
                .rangeGte("third_range", range: "[35,45)")
                .rangeLte("fourth_range", range: "[45,55)")
                .rangeAdjacent("fifth_range", range: "[55,65)")
                .execute()
        }
        let query: KeyValuePairs = [
            "age_range": "sl.[18,25)", "fifth_range": "adj.[55,65)", "fourth_range": "nxr.[45,55)",
            "other_range": "sr.[25,35)", "select": "*", "third_range": "nxl.[35,45)",
        ]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("overlapsFilter")
    func overlapsArray() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().overlaps("schedule", value: ["9:00", "17:00"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["schedule": "ov.{9:00,17:00}", "select": "*"]).verify(sent)
    }

    @Test("likeAnyOf quotes patterns with reserved characters (supabase-swift's array-literal quoting)")
    func likeAnyQuoted() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().likeAnyOf(
                "name", patterns: ["%Smith, John%", "NULL", #"a"b"#, " x"]
            )
            .execute()
        }
        let query: KeyValuePairs = [
            "name": #"like(any).{"%Smith, John%","NULL","a\"b"," x"}"#, "select": "*",
        ]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("likeAllOfFilter")
    func likeAll() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().likeAllOf("name", patterns: ["%test%", "%user%"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["name": "like(all).{%test%,%user%}", "select": "*"])
            .verify(sent)
    }

    @Test("likeAnyOfFilter")
    func likeAny() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().likeAnyOf("name", patterns: ["%test%", "%user%"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["name": "like(any).{%test%,%user%}", "select": "*"])
            .verify(sent)
    }

    @Test("iLikeAllOfFilter")
    func iLikeAll() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().iLikeAllOf("name", patterns: ["%TEST%", "%USER%"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["name": "ilike(all).{%TEST%,%USER%}", "select": "*"])
            .verify(sent)
    }

    @Test("iLikeAnyOfFilter")
    func iLikeAny() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().iLikeAnyOf("name", patterns: ["%TEST%", "%USER%"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["name": "ilike(any).{%TEST%,%USER%}", "select": "*"])
            .verify(sent)
    }
}
