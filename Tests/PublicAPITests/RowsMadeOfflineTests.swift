import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The README's "Rows made offline" settings, as an app writes them.
func readmeTableSettings(_ configuration: inout Configuration) {
    configuration.tables = [
        "channels": TableSettings(key: ["id"], madeOnDevice: ["id": .uuid, "created_at": .now]),
        "likes": TableSettings(key: ["user_id", "post_id"]),
        "messages": TableSettings(madeOnDevice: ["id": .uuid], foreignKeys: ["profiles": "author_id"]),
    ]
}

/// Rows made offline, public API only: a model decoding its server-made columns as non-optional
/// reads a row written offline.
@Suite("Rows made offline, public API only", .timeLimit(.minutes(10)))
struct RowsMadeOfflineTests {
    /// A channel whose `id` and `created_at` the server makes, decoded by hand as some apps do
    /// (keys named where they are read).
    struct Channel: Decodable, Equatable {
        let id: UUID
        let name: String
        let createdAt: Date

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.init(stringValue) }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let row = try decoder.container(keyedBy: Key.self)
            id = try row.decode(UUID.self, forKey: Key("id"))
            name = try row.decode(String.self, forKey: Key("name"))
            createdAt = try row.decode(Date.self, forKey: Key("created_at"))
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

    @Test(
        "the catalog's embed and badge snippets, offline: the new message shows its author and moves the badge"
    )
    func catalogEmbedAndBadge() async throws {
        let (channel, user) = ("c1", "u1")
        let id = "0b3c1d9e-8f4a-4b6e-9a51-2c7d8e9f0a1b"
        let cached: Row = [
            "id": .string(id), "channel_id": "c1", "author_id": "u1", "text": "hi", "read": false,
            "author": ["name": "Ann"],
        ]
        let body =
            #"[{"id":"\#(id)","channel_id":"c1","author_id":"u1","text":"hi","read":false,"author":{"name":"Ann"}}]"#
        let server = InMemoryPostgREST(tables: ["messages": [cached]])
        // The in-memory server reads no embeds: the embed read is answered as PostgREST would.
        await server.setInterceptor { request in
            guard request.method == .get, request.url.absoluteString.contains("author") else { return nil }
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(body.utf8))
        }
        var configuration = rowsMadeOfflineSettings(
            projectURL: URL(string: "https://example.invalid")!, anonKey: "anon-key",
            folder: URL(fileURLWithPath: "/"))
        configuration.storage = .inMemory
        configuration.clock = ManualClock()
        configuration.transport = server
        let client = try await OfflineClient(configuration: configuration)
        _ = try await client.from("messages").select("*, author:profiles!author_id(name)").eq(
            "channel_id", value: channel
        )
        .execute()
        #expect(try await rowsMadeOfflineBadge(client, channelID: channel) == 1)
        await client.disableNetwork()
        let shown = try await rowsMadeOfflineEmbed(client, channelID: channel, userID: user)
        #expect(shown.map(\.author.name) == ["Ann", "Ann"])
        // The new message does not say whether it is read: a row the filters may admit joins.
        #expect(try await rowsMadeOfflineBadge(client, channelID: channel) == 2)
        await client.close()
    }
}
