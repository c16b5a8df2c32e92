import Foundation
import OfflineEngine
import Testing

/// supabase-swift's `PostgrestFilterValueTests` for scalar values, checked where they end up:
/// in a filter's value on the wire. Each is named after its test function.
@Suite("PostgrestFilterValueTests", .timeLimit(.minutes(10)))
struct FilterValueTests {
    @Test("uuid")
    func uuidValue() async throws {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let sent = try await Wire.request {
            try await $0.from("users").select().eq("id", value: id).execute()
        }
        // supabase-swift sends `uuidString` (upper case); we send the lower case Postgres writes,
        // which a `uuid` column reads the same and a text copy of one matches.
        try ExpectedRequest(
            .get, "users", query: ["id": "eq.e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "select": "*"]
        )
        .verify(sent)
    }

    @Test("date")
    func dateValue() async throws {
        let date = Date(timeIntervalSince1970: 1_737_465_985)
        let sent = try await Wire.request {
            try await $0.from("users").select().lt("created_at", value: date).execute()
        }
        try ExpectedRequest(
            .get, "users", query: ["created_at": "lt.2025-01-21T13:26:25.000Z", "select": "*"]
        )
        .verify(sent)
    }
}
