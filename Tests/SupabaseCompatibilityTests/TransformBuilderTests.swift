import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestTransformBuilderTests` that this API can express (order, limit,
/// range, one row, and a write's `select`), each named after its test function.
@Suite("PostgrestTransformBuilderTests")
struct TransformBuilderTests {
    struct User: Codable, Sendable {
        var id: Int
        var username: String
    }

    /// supabase-swift's embedded select, written over several lines.
    static let countriesWithCities = """
        name,
        cities (
          name
        )
        """

    @Test("select")
    func writeThenSelect() async throws {
        let sent = try await Wire.request {
            try await $0.from("users").insert(User(id: 1, username: "admin"), returning: .minimal)
                .select(#"username, "first name""#).execute()
        }
        let expected = ExpectedRequest(
            .post, "users", query: ["select": #"username,"first name""#], prefer: ["return=representation"],
            body: #"[{"id":1,"username":"admin"}]"#)
        try expected.verify(sent)
    }

    @Test("order")
    func orderEmbeddedTable() async throws {
        let columns = """
            name,
            country:countries(
              name
            )
            """
        let sent = try await Wire.request {
            try await $0.from("cities").select(columns).order(
                "name", ascending: true, referencedTable: "countries"
            )
            .execute()
        }
        let query: KeyValuePairs = [
            "countries.order": "name.asc.nullslast", "select": "name,country:countries(name)",
        ]
        try ExpectedRequest(.get, "cities", query: query).verify(sent)
    }

    @Test("multipleOrder")
    func twoOrderTerms() async throws {
        let sent = try await Wire.request {
            try await $0.from("cities").select("name,num_of_habitants").order("num_of_habitants")
                .order("name", ascending: false, nullsFirst: true).execute()
        }
        let query: KeyValuePairs = [
            "order": "num_of_habitants.asc.nullslast,name.desc.nullsfirst", "select": "name,num_of_habitants",
        ]
        try ExpectedRequest(.get, "cities", query: query).verify(sent)
    }

    @Test("limit")
    func limitEmbeddedTable() async throws {
        let sent = try await Wire.request {
            try await $0.from("countries").select(Self.countriesWithCities).limit(
                1, referencedTable: "cities"
            )
            .execute()
        }
        try ExpectedRequest(.get, "countries", query: ["cities.limit": "1", "select": "name,cities(name)"])
            .verify(sent)
    }

    @Test("range")
    func rangeOfRows() async throws {
        let sent = try await Wire.request {
            try await $0.from("countries").select(Self.countriesWithCities).range(from: 0, to: 1).execute()
        }
        try ExpectedRequest(
            .get, "countries", query: ["limit": "2", "offset": "0", "select": "name,cities(name)"]
        )
        .verify(sent)
    }

    @Test("rangeWithReferencedTable")
    func rangeEmbeddedTable() async throws {
        let sent = try await Wire.request {
            try await $0.from("countries").select(Self.countriesWithCities)
                .range(from: 0, to: 1, referencedTable: "cities").execute()
        }
        let query: KeyValuePairs = ["cities.limit": "2", "cities.offset": "0", "select": "name,cities(name)"]
        try ExpectedRequest(.get, "countries", query: query).verify(sent)
    }

    @Test("single")
    func singleRow() async throws {
        let server = StubPostgREST(readRows: #"[{"name":"United States"}]"#)
        let (sent, response) = try await Wire.capture(answering: server) {
            client -> ReadResponse<[String: String]> in
            try await client.from("countries").select("name").limit(1).single().execute()
        }
        // supabase-swift asks for `application/vnd.pgrst.object+json`; we ask for the rows as
        // JSON and check the count ourselves, the same for cached rows.
        try ExpectedRequest(.get, "countries", query: ["limit": "1", "select": "name"]).verify(sent)
        #expect(response.value["name"] == "United States")
    }

    @Test("maybeSingle")
    func maybeSingleRow() async throws {
        let server = StubPostgREST(readRows: #"[{"name":"United States"}]"#)
        let (sent, response) = try await Wire.capture(answering: server) {
            client -> ReadResponse<[String: String]?> in
            try await client.from("countries").select("name").limit(1).maybeSingle().execute()
        }
        // As in `single`: rows asked for as JSON, their count checked here.
        try ExpectedRequest(.get, "countries", query: ["limit": "1", "select": "name"]).verify(sent)
        #expect(response.value?["name"] == "United States")
    }

    @Test("maybeSingleFlagSurvivesALaterTransformCall")
    func maybeSingleThenOrder() async throws {
        let (sent, response) = try await Wire.capture { client -> ReadResponse<User?> in
            try await client.from("users").select().maybeSingle().order("id").execute()
        }
        // As in `single`: no rows is `nil` by our own count, not by PostgREST's PGRST116.
        try ExpectedRequest(.get, "users", query: ["order": "id.asc.nullslast", "select": "*"]).verify(sent)
        #expect(response.value == nil)
    }
}
