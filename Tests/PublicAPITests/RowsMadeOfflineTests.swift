import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The README's "Rows made offline" settings, as an app writes them.
func readmeTableSettings(_ configuration: inout Configuration) {
    configuration.tables = [
        "channels": TableSettings(key: ["id"], madeOnDevice: ["id": .uuid, "created_at": .now]),
        "likes": TableSettings(key: ["user_id", "post_id"]),
    ]
}

/// Rows made offline, public API only: a model decoding its server-made columns as non-optional
/// reads a row written offline.
@Suite("Rows made offline, public API only")
struct RowsMadeOfflineTests {
    /// A channel whose `id` and `created_at` the server makes.
    struct Channel: Decodable, Equatable {
        let id: UUID
        let name: String
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, name
            case createdAt = "created_at"
        }
    }

    @Test(
        "with the README's settings, a channel inserted offline decodes in its list and as the write's value")
    func offlineInsertDecodes() async throws {
        let server = InMemoryPostgREST(tables: ["channels": []])
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key", clock: ManualClock(),
            transport: server)
        readmeTableSettings(&configuration)
        let client = try await OfflineClient(configuration: configuration)
        let channels = client.from("channels").select().order("name")
        _ = try await channels.execute()
        await client.disableNetwork()
        let saved: Channel = try await client.from("channels").insert(["name": "general"] as Row).select()
            .single()
            .execute().value
        let listed: [Channel] = try await channels.execute().value
        #expect(listed == [saved])
        await client.close()
    }
}
