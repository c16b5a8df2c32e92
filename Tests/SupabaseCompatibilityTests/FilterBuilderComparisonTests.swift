import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestFilterBuilderTests` for comparisons, lists, negation and logic
/// trees, each named after its test function. Their fixture sends `apikey`, as every request
/// here does.
@Suite("PostgrestFilterBuilderTests: comparisons")
struct FilterBuilderComparisonTests {
    @Test("notFilter")
    func notEqual() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().not("status", operator: .eq, value: "OFFLINE").execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "status": "not.eq.OFFLINE"]).verify(sent)
    }

    @Test("orFilter")
    func orTree() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().or("status.eq.OFFLINE,username.eq.test").execute()
        }
        let query: KeyValuePairs = ["or": "(status.eq.OFFLINE,username.eq.test)", "select": "*"]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("orFilterWithReferencedTable")
    func orTreeOnEmbeddedTable() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select()
                .or("public.eq.true,recipient_id.eq.1", referencedTable: "messages").execute()
        }
        let query: KeyValuePairs = ["messages.or": "(public.eq.true,recipient_id.eq.1)", "select": "*"]
        try ExpectedRequest(.get, "users", query: query).verify(sent)
    }

    @Test("multipleFilters")
    func twoFilters() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().gte("age", value: 18).eq("status", value: "active").execute()
        }
        try ExpectedRequest(.get, "users", query: ["age": "gte.18", "select": "*", "status": "eq.active"])
            .verify(sent)
    }

    @Test("likeFilter")
    func like() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().like("email", pattern: "%@example.com").execute()
        }
        try ExpectedRequest(.get, "users", query: ["email": "like.%@example.com", "select": "*"]).verify(sent)
    }

    @Test("iLikeFilter")
    func ilike() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().ilike("email", pattern: "%@EXAMPLE.COM").execute()
        }
        try ExpectedRequest(.get, "users", query: ["email": "ilike.%@EXAMPLE.COM", "select": "*"]).verify(
            sent)
    }

    @Test("isFilter")
    func isNull() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().is("deleted_at", value: nil).execute()
        }
        // supabase-swift writes `is.NULL`; PostgREST reads an `is` value in any case.
        try ExpectedRequest(.get, "users", query: ["deleted_at": "is.null", "select": "*"]).verify(sent)
    }

    @Test("inFilter")
    func inList() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().in("status", values: ["active", "pending"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "status": "in.(active,pending)"]).verify(
            sent)
    }

    @Test("notInFilter")
    func notInList() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().notIn("status", values: ["archived", "deleted"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "status": "not.in.(archived,deleted)"])
            .verify(sent)
    }

    @Test("inFilterQuotesValuesWithReservedCharacters")
    func inListQuoting() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().in("tags", values: ["a,b", "c(d)", "plain"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "tags": #"in.("a,b","c(d)",plain)"#])
            .verify(sent)
    }

    @Test("matchFilter")
    func matchAll() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().match(["status": "active", "role": "admin"]).execute()
        }
        try ExpectedRequest(.get, "users", query: ["role": "eq.admin", "select": "*", "status": "eq.active"])
            .verify(sent)
    }

    @Test("filterEscapeHatch")
    func rawFilter() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().filter("created_at", operator: "gt", value: "2023-01-01")
                .execute()
        }
        try ExpectedRequest(.get, "users", query: ["created_at": "gt.2023-01-01", "select": "*"]).verify(sent)
    }

    @Test("neqFilter")
    func notEqualNamed() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().neq("status", value: "inactive").execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "status": "neq.inactive"]).verify(sent)
    }

    @Test("gtFilter")
    func greater() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().gt("age", value: 21).execute()
        }
        try ExpectedRequest(.get, "users", query: ["age": "gt.21", "select": "*"]).verify(sent)
    }

    @Test("ltFilter")
    func less() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().lt("age", value: 65).execute()
        }
        try ExpectedRequest(.get, "users", query: ["age": "lt.65", "select": "*"]).verify(sent)
    }

    @Test("lteFilter")
    func lessOrEqual() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").select().lte("age", value: 65).execute()
        }
        try ExpectedRequest(.get, "users", query: ["age": "lte.65", "select": "*"]).verify(sent)
    }

    @Test("regexMatchFilter")
    func regexMatch() async throws {
        // No named `match(_:pattern:)` here: the operator is given by name.
        let sent = try await Wire.request {
            try await $0.from("users").select().filter("email", operator: "match", value: #"^.+@.+\..+$"#)
                .execute()
        }
        // supabase-swift sends the pattern's `+` raw, which PostgREST reads as a space; we send `%2B`.
        try ExpectedRequest(.get, "users", query: ["email": #"match.^.+@.+\..+$"#, "select": "*"]).verify(
            sent)
    }

    @Test("regexImatchFilter")
    func regexMatchIgnoringCase() async throws {
        // No named `imatch(_:pattern:)` here: the operator is given by name.
        let sent = try await Wire.request {
            try await $0.from("users").select().filter("name", operator: "imatch", value: "^john").execute()
        }
        try ExpectedRequest(.get, "users", query: ["name": "imatch.^john", "select": "*"]).verify(sent)
    }

    @Test("isDistinctFilter")
    func isDistinct() async throws {
        // No named `isDistinct(_:value:)` here: the operator is given by name.
        let sent = try await Wire.request {
            try await $0.from("users").select().filter("status", operator: "isdistinct", value: "null")
                .execute()
        }
        try ExpectedRequest(.get, "users", query: ["select": "*", "status": "isdistinct.null"]).verify(sent)
    }
}
