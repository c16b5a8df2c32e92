import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestTransformBuilderTests` that this API can express (order, limit,
/// range, one row, and a write's `select`), each named after its test function.
@Suite("PostgrestTransformBuilderTests", .timeLimit(.minutes(10)))
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

    static let cases: [WireCase] = [
        WireCase(
            "select",
            sends: ExpectedRequest(
                .post, "users", query: ["select": #"username,"first name""#],
                prefer: ["return=representation"],
                body: #"[{"id":1,"username":"admin"}]"#)
        ) {
            try await $0.from("users").insert(User(id: 1, username: "admin"), returning: .minimal)
                .select(#"username, "first name""#).execute()
        },
        WireCase(
            "order",
            sends: ExpectedRequest(
                .get, "cities",
                query: ["countries.order": "name.asc.nullslast", "select": "name,country:countries(name)"])
        ) {
            let columns = """
                name,
                country:countries(
                  name
                )
                """
            _ = try await $0.from("cities").select(columns).order(
                "name", ascending: true, referencedTable: "countries"
            )
            .execute()
        },
        WireCase(
            "multipleOrder",
            sends: ExpectedRequest(
                .get, "cities",
                query: [
                    "order": "num_of_habitants.asc.nullslast,name.desc.nullsfirst",
                    "select": "name,num_of_habitants",
                ])
        ) {
            try await $0.from("cities").select("name,num_of_habitants").order("num_of_habitants")
                .order("name", ascending: false, nullsFirst: true).execute()
        },
        WireCase(
            "limit",
            sends: ExpectedRequest(
                .get, "countries", query: ["cities.limit": "1", "select": "name,cities(name)"])
        ) {
            try await $0.from("countries").select(countriesWithCities).limit(1, referencedTable: "cities")
                .execute()
        },
        WireCase(
            "range",
            sends: ExpectedRequest(
                .get, "countries", query: ["limit": "2", "offset": "0", "select": "name,cities(name)"])
        ) {
            try await $0.from("countries").select(countriesWithCities).range(from: 0, to: 1).execute()
        },
        WireCase(
            "rangeWithReferencedTable",
            sends: ExpectedRequest(
                .get, "countries",
                query: ["cities.limit": "2", "cities.offset": "0", "select": "name,cities(name)"])
        ) {
            try await $0.from("countries").select(countriesWithCities)
                .range(from: 0, to: 1, referencedTable: "cities").execute()
        },
    ]

    @Test("sends the request supabase-swift's case expects", arguments: cases)
    func request(_ wireCase: WireCase) async throws {
        try await wireCase.verify()
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
