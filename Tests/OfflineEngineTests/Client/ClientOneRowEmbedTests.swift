import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A message as a chat app decodes it: its author embedded, non-optional.
private struct Message: Decodable, Hashable {
    var id: String
    var text: String
    var user: Author

    struct Author: Decodable, Hashable {
        var id: String
        var name: String
    }
}

/// A message whose author may be missing, as the reference's tip decodes one.
private struct LooseMessage: Decodable, Hashable {
    var id: String
    var user: Message.Author?
}

/// A row written on the device joins lists that embed the row its foreign key names, with that
/// embed as a cached row of the table holding the same foreign key value shows it.
@Suite("Embeds of one row on rows made offline", .timeLimit(.minutes(10)))
struct ClientOneRowEmbedTests {
    private static let ann: Row = ["id": "u1", "name": "Ann"]
    private static let bob: Row = ["id": "u2", "name": "Bob"]

    /// A client whose server answers reads of `messages` that embed with `answer` (the in-memory
    /// server reads no embeds): each message of the channel filtered on, as PostgREST embeds it.
    private static func fixture(
        _ rows: [Row], configure: @escaping (inout Configuration) -> Void = { _ in }
    ) async throws -> ClientFixture {
        let fixture = try await ClientFixture(tables: ["messages": []]) {
            // Settings for the table (none in particular): its written rows take embeds.
            $0.tables = ["messages": TableSettings()]
            configure(&$0)
        }
        fixture.probe.answer { request in
            guard request.method == .get, let url = request.url.absoluteString.removingPercentEncoding,
                url.contains("(")
            else { return nil }
            let channel = rows.filter { row in
                guard case .string(let id)? = row["channel_id"] else { return false }
                return url.contains("channel_id=eq.\(id)")
            }
            return jsonResponse(url.contains("channel_id=") ? channel : rows)
        }
        return fixture
    }

    /// Takes the client offline and inserts `row` into `messages`: the write is queued.
    private static func insertOffline(_ row: Row, into fixture: ClientFixture) async throws {
        await fixture.client.disableNetwork()
        try await fixture.client.from("messages").insert(row).execute()
    }

    private static func message(_ id: String, by author: Row, in channel: String, key: String = "user") -> Row
    {
        var row: Row = ["id": .string(id), "text": "hi", "channel_id": .string(channel)]
        row["user_id"] = author["id"]
        row[key] = .object(author.values)
        return row
    }

    @Test(
        "a queued message joins a user:user_id(*) list with its author taken from a cached message by the same user"
    )
    func queuedRowTakesTheEmbed() async throws {
        let fixture = try await Self.fixture([Self.message("m1", by: Self.ann, in: "c1")])
        let list = fixture.client.from("messages").select("*, user:user_id(*)").eq("channel_id", value: "c1")
        _ = try await list.execute() as ReadResponse<[Message]>
        try await Self.insertOffline(
            ["id": "m2", "text": "yo", "channel_id": "c1", "user_id": "u1"] as Row, into: fixture)
        let offline: ReadResponse<[Message]> = try await list.execute()
        #expect(offline.value.map(\.id) == ["m1", "m2"])
        #expect(offline.value.last?.user == Message.Author(id: "u1", name: "Ann"))
        let live = try await firstValue(of: list.snapshots()) { $0.hasPendingMutations }
        #expect(try #require(live.result).decode([Message].self).last?.user.name == "Ann")
        await fixture.client.close()
    }

    @Test(
        "the embed comes from another cached list of the table, read with the same embed under another alias")
    func embedFromAnotherList() async throws {
        let fixture = try await Self.fixture([
            Self.message("m1", by: Self.ann, in: "c1"),
            Self.message("m2", by: Self.bob, in: "c1", key: "sender"),
        ])
        _ = try await fixture.client.from("messages").select("*, sender:user_id(*)").eq(
            "channel_id", value: "c1"
        )
        .execute()
        let empty = fixture.client.from("messages").select("*, user:user_id(*)").eq("channel_id", value: "c2")
        _ = try await empty.execute()
        try await Self.insertOffline(
            ["id": "m3", "text": "yo", "channel_id": "c2", "user_id": "u2"] as Row, into: fixture)
        let shown: [Message] = try await empty.execute().value
        #expect(shown == [Message(id: "m3", text: "yo", user: Message.Author(id: "u2", name: "Bob"))])
        await fixture.client.close()
    }

    @Test(
        "author:profiles!author_id(name) follows its hint; profiles(name) follows the column the app declared"
    )
    func hintedAndDeclaredEmbeds() async throws {
        let cached: Row = [
            "id": "m1", "text": "hi", "channel_id": "c1", "author_id": "u1", "author": ["name": "Ann"],
            "profiles": ["name": "Ann"],
        ]
        let fixture = try await Self.fixture([cached]) {
            $0.tables = ["messages": TableSettings(foreignKeys: ["profiles": "author_id"])]
        }
        let hinted = fixture.client.from("messages").select("id, author_id, author:profiles!author_id(name)")
        let declared = fixture.client.from("messages").select("id, author_id, profiles(name)")
        _ = try await hinted.execute()
        _ = try await declared.execute()
        await fixture.client.disableNetwork()
        try await fixture.client.from("messages").insert(["id": "m2", "author_id": "u1"] as Row).execute()
        #expect(try await hinted.execute().rows.last?["author"] == ["name": "Ann"])
        #expect(try await declared.execute().rows.last?["profiles"] == ["name": "Ann"])
        await fixture.client.close()
    }

    @Test(
        "with no cached row holding the same foreign key value, the row shows without the embed, as the reference says"
    )
    func noCachedRowLeavesTheEmbedOut() async throws {
        let fixture = try await Self.fixture([Self.message("m1", by: Self.ann, in: "c1")])
        let list = fixture.client.from("messages").select("*, user:user_id(*)").eq("channel_id", value: "c1")
        _ = try await list.execute()
        try await Self.insertOffline(
            ["id": "m2", "text": "yo", "channel_id": "c1", "user_id": "u9"] as Row, into: fixture)
        let offline = try await list.execute()
        #expect(offline.rows.last?["user"] == nil)
        let loose: [LooseMessage] = try await list.execute().value
        #expect(loose.map(\.user?.name) == ["Ann", nil])
        await fixture.client.close()
    }

    @Test(
        "an embed of many rows keeps the reference's behaviour: a queued channel shows without its messages")
    func manyRowEmbedUnchanged() async throws {
        let fixture = try await ClientFixture(tables: ["channels": []]) {
            $0.tables = ["channels": TableSettings()]
        }
        fixture.probe.answer { request in
            guard request.method == .get else { return nil }
            return jsonResponse([["id": "c1", "messages": [["id": "m1", "channel_id": "c1"]]]])
        }
        let list = fixture.client.from("channels").select("id, messages(id, channel_id)")
        _ = try await list.execute()
        await fixture.client.disableNetwork()
        try await fixture.client.from("channels").insert(["id": "c2"] as Row).execute()
        let rows = try await list.execute().rows
        #expect(rows.map { $0["id"] } == ["c1", "c2"])
        #expect(rows.last?["messages"] == nil)
        await fixture.client.close()
    }

    @Test(
        "an insert sent at once never joins an embed list without its embed: the list is fetched again for the server's"
    )
    func onlinePatchedRowTakesTheEmbed() async throws {
        let fixture = try await Self.fixture([Self.message("m1", by: Self.ann, in: "c1")])
        let list = fixture.client.from("messages").select("id, text, user:user_id(*)").eq(
            "channel_id", value: "c1")
        _ = try await list.execute()
        let sent = try await fixture.client.from("messages").insert(
            ["id": "m2", "text": "yo", "channel_id": "c1", "user_id": "u1"] as Row
        ).execute()
        #expect(!sent.isQueued)
        await fixture.client.disableNetwork()
        // The server's rows carry every column, not the list's embed: the list is stale instead.
        let offline: ReadResponse<[Message]> = try await list.execute()
        #expect(offline.value.map(\.id) == ["m1"] && offline.isFromCache)
        await fixture.client.close()
    }

    @Test(
        "with a declared relation, the embed comes from the embedded table's cached rows, across a relaunch offline"
    )
    func embedFromTheDeclaredTable() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let settings = { (configuration: inout Configuration) in
                configuration.tables = ["messages": TableSettings(foreignKeys: ["profiles": "user_id"])]
            }
            let first = try await ClientFixture(
                tables: ["messages": [], "profiles": [Self.ann, Self.bob]], storage: .directory(folder),
                configure: settings)
            // The in-memory server reads no embeds: no message is cached with an author.
            first.probe.answer { request in
                request.method == .get && request.url.absoluteString.contains("user_id")
                    ? jsonResponse([]) : nil
            }
            _ = try await first.client.from("profiles").select().execute()
            let list = { (client: OfflineClient) in
                client.from("messages").select("*, user:user_id(*)").eq("channel_id", value: "c1")
            }
            _ = try await list(first.client).execute()
            try await Self.insertOffline(
                ["id": "m1", "text": "yo", "channel_id": "c1", "user_id": "u2"] as Row, into: first)
            #expect(try await list(first.client).execute().value == [Self.bobsMessage])
            await first.client.close()

            await first.server.setReachable(false)
            let second = try await ClientFixture(
                storage: .directory(folder), server: first.server, probe: ServerProbe(), configure: settings)
            let relaunched = try await firstValue(of: list(second.client).snapshots()) { $0.result != nil }
            #expect(try #require(relaunched.result).decode([Message].self) == [Self.bobsMessage])
            await second.client.close()
        }
    }

    private static let bobsMessage = Message(
        id: "m1", text: "yo", user: Message.Author(id: "u2", name: "Bob"))

    @Test("a declared relation reads only the embed's columns, and a null foreign key shows a null embed")
    func declaredColumnsAndNull() async throws {
        let fixture = try await ClientFixture(tables: ["messages": [], "profiles": [Self.ann]]) {
            $0.tables = ["messages": TableSettings(foreignKeys: ["profiles": "author_id"])]
        }
        fixture.probe.answer { request in
            request.method == .get && request.url.absoluteString.contains("author") ? jsonResponse([]) : nil
        }
        _ = try await fixture.client.from("profiles").select("id, name").execute()
        let list = fixture.client.from("messages").select("id, author:profiles!author_id(name)")
        _ = try await list.execute()
        try await Self.insertOffline(["id": "m1", "author_id": "u1"] as Row, into: fixture)
        try await fixture.client.from("messages").insert(["id": "m2", "author_id": nil] as Row).execute()
        let rows = try await list.execute().rows
        #expect(rows.map { $0["author"] } == [["name": "Ann"], .null])
        await fixture.client.close()
    }

    @Test("a table without settings keeps the reference's limit: a queued row shows without the embed")
    func noSettingsNoEmbed() async throws {
        let fixture = try await ClientFixture(tables: ["messages": []])
        fixture.probe.answer { request in
            request.method == .get ? jsonResponse([Self.message("m1", by: Self.ann, in: "c1")]) : nil
        }
        let list = fixture.client.from("messages").select("*, user:user_id(*)").eq("channel_id", value: "c1")
        _ = try await list.execute()
        try await Self.insertOffline(
            ["id": "m2", "text": "yo", "channel_id": "c1", "user_id": "u1"] as Row, into: fixture)
        let rows = try await list.execute().rows
        #expect(rows.map { $0["id"] } == ["m1", "m2"] && rows.last?["user"] == nil)
        await fixture.client.close()
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
