import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The value of a queued write that asks for an embed of one row carries it as the lists do:
/// `insert(message).select("*, user:user_id(*)").single()` offline decodes into a model whose
/// author is not optional.
@Suite("Embeds of one row in a queued write's own rows")
struct ClientWrittenRowEmbedTests {
    private struct Message: Decodable, Hashable {
        struct Author: Decodable, Hashable {
            var id: String
            var name: String
        }

        var id: String
        var text: String
        var user: Author
    }

    private struct LooseMessage: Decodable, Hashable {
        var id: String
        var user: Message.Author?
    }

    @Test(
        "a queued insert's .select(\"*, user:user_id(*)\").single() decodes with the author a cached message holds"
    )
    func queuedInsertTakesTheEmbed() async throws {
        let fixture = try await ClientFixture(tables: ["messages": []]) { configuration in
            configuration.tables = ["messages": TableSettings()]
        }
        let cached: Row = [
            "id": "m1", "text": "hi", "channel_id": "c1", "user_id": "u1",
            "user": ["id": "u1", "name": "Ann"],
        ]
        fixture.probe.answer { request in
            guard request.method == .get,
                request.url.absoluteString.removingPercentEncoding?.contains("(") == true
            else { return nil }
            return jsonResponse([cached])
        }
        let list = fixture.client.from("messages").select("*, user:user_id(*)").eq("channel_id", value: "c1")
        _ = try await list.execute() as ReadResponse<[Message]>
        await fixture.client.disableNetwork()
        let sent: WriteResponse<Message> = try await fixture.client.from("messages")
            .insert(["id": "m2", "text": "yo", "channel_id": "c1", "user_id": "u1"] as Row)
            .select("*, user:user_id(*)").single().execute()
        #expect(sent.isQueued)
        #expect(sent.value.user == Message.Author(id: "u1", name: "Ann"))
        let other: WriteResponse<[LooseMessage]> = try await fixture.client.from("messages")
            .insert(["id": "m3", "text": "?", "channel_id": "c1", "user_id": "u9"] as Row)
            .select("*, user:user_id(*)").execute()
        #expect(
            other.value.first?.user == nil,
            "no cached row holds u9: shown without the embed, as the reference says")
        await fixture.client.close()
    }
}
