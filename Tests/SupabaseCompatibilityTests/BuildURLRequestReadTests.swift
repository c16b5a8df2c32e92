import Foundation
import OfflineEngine
import Testing

/// The reads of supabase-swift's `BuildURLRequestTests`, each named after its snapshot; the
/// expected requests are those snapshots, as PostgREST reads them.
@Suite("BuildURLRequestTests: reads")
struct BuildURLRequestReadTests {
    @Test("select-all-users-where-email-ends-with-supabase-co")
    func likeSuffix() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().like("email", pattern: "%@supabase.co").execute()
        }
        try ExpectedRequest(.get, "users", query: ["email": "like.%@supabase.co", "select": "*"]).verify(sent)
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

    @Test("test-in-filter")
    func inList() async throws {
        let sent = try await Wire.request {
            try await $0.from("todos").select().in("id", values: [1, 2, 3]).execute()
        }
        try ExpectedRequest(.get, "todos", query: ["id": "in.(1,2,3)", "select": "*"]).verify(sent)
    }

    @Test("test-contains-filter-with-dictionary")
    func containsObject() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select("name").contains(
                "address", value: ["postcode": 90210] as JSONValue
            )
            .execute()
        }
        try ExpectedRequest(.get, "users", query: ["address": #"cs.{"postcode":90210}"#, "select": "name"])
            .verify(sent)
    }

    @Test("test-contains-filter-with-array")
    func containsArray() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().contains("name", value: ["is:online", "faction:red"])
                .execute()
        }
        try ExpectedRequest(.get, "users", query: ["name": "cs.{is:online,faction:red}", "select": "*"])
            .verify(sent)
    }

    @Test("test-or-filter-with-referenced-table")
    func orOnEmbeddedTable() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select("*, messages(*)")
                .or("public.eq.true,recipient_id.eq.1", referencedTable: "messages").execute()
        }
        let query: KeyValuePairs = [
            "messages.or": "(public.eq.true,recipient_id.eq.1)", "select": "*,messages(*)",
        ]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("query-with-character")
    func plusInValue() async throws {
        let value = "Cigányka-ér (0+400 cskm) vízrajzi állomás"
        let sent = try await Wire.request {
            try await $0.from("users").select().eq("id", value: value).execute()
        }
        // supabase-swift sends this `+` raw, which PostgREST reads as a space; we send `%2B`.
        try ExpectedRequest(.get, "users", query: ["id": "eq." + value, "select": "*"]).verify(sent)
    }

    @Test("query-with-timestamptz")
    func timestampWithOffset() async throws {
        let sent = try await Wire.request {
            try await $0.from("tasks").select().gt("received_at", value: "2023-03-23T15:50:30.511743+00:00")
                .order("received_at").execute()
        }
        // supabase-swift sends the offset's `+` raw (read as a space by PostgREST); we send `%2B`.
        let query: KeyValuePairs = [
            "order": "received_at.asc.nullslast", "received_at": "gt.2023-03-23T15:50:30.511743+00:00",
            "select": "*",
        ]
        try ExpectedRequest(.get, "tasks", query: query).verify(sent)
    }

    @Test("query-non-default-schema")
    func otherSchema() async throws {
        let sent = try await Wire.request {
            try await $0.schema("storage").from("objects").select().execute()
        }
        try ExpectedRequest(.get, "objects", query: ["select": "*"], acceptProfile: "storage").verify(sent)
    }

    @Test("query-if-nil-value")
    func isNull() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().is("email", value: nil).execute()
        }
        // supabase-swift writes `is.NULL`; PostgREST reads an `is` value in any case.
        try ExpectedRequest(.get, "users", query: ["email": "is.null", "select": "*"]).verify(sent)
    }

    @Test("likeAllOf")
    func likeAll() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().likeAllOf(
                "email", patterns: ["%@supabase.io", "%@supabase.com"]
            )
            .execute()
        }
        let query: KeyValuePairs = ["email": "like(all).{%@supabase.io,%@supabase.com}", "select": "*"]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("likeAnyOf")
    func likeAny() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().likeAnyOf(
                "email", patterns: ["%@supabase.io", "%@supabase.com"]
            )
            .execute()
        }
        let query: KeyValuePairs = ["email": "like(any).{%@supabase.io,%@supabase.com}", "select": "*"]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("iLikeAllOf")
    func iLikeAll() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().iLikeAllOf(
                "email", patterns: ["%@supabase.io", "%@supabase.com"]
            )
            .execute()
        }
        let query: KeyValuePairs = ["email": "ilike(all).{%@supabase.io,%@supabase.com}", "select": "*"]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("iLikeAnyOf")
    func iLikeAny() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().iLikeAnyOf(
                "email", patterns: ["%@supabase.io", "%@supabase.com"]
            )
            .execute()
        }
        let query: KeyValuePairs = ["email": "ilike(any).{%@supabase.io,%@supabase.com}", "select": "*"]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("containedBy-using-array")
    func containedByArray() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().containedBy("id", value: ["a", "b", "c"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["id": "cd.{a,b,c}", "select": "*"]).verify(sent)
    }

    @Test("containedBy-using-range")
    func containedByRange() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().containedBy("age", value: "[10,20]").execute()
        }
        try ExpectedRequest(.get, "users", query: ["age": "cd.[10,20]", "select": "*"]).verify(sent)
    }

    @Test("containedBy-using-json")
    func containedByObject() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().containedBy("userMetadata", value: ["age": 18] as JSONValue)
                .execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "userMetadata": #"cd.{"age":18}"#]).verify(
            sent)
    }

    @Test("filter-starting-with-non-alphanumeric")
    func leadingPlus() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().eq("to", value: "+16505555555").execute()
        }
        // supabase-swift sends the leading `+` raw, which PostgREST reads as a space; we send `%2B`.
        try ExpectedRequest(.get, "users", query: ["select": "*", "to": "eq.+16505555555"]).verify(sent)
    }

    @Test("filter-using-Date")
    func dateValue() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().gt("created_at", value: Date(timeIntervalSince1970: 0))
                .execute()
        }
        try ExpectedRequest(
            .get, "users", query: ["created_at": "gt.1970-01-01T00:00:00.000Z", "select": "*"]
        )
        .verify(sent)
    }
}
