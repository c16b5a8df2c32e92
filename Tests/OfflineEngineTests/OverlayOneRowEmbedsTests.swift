import Foundation
import Testing

@testable import OfflineEngine

/// The embeds of one row the overlay reads from a list's `select`, and what it lays on a written
/// row: pure values, no client.
@Suite("Overlay: embeds of one row", .timeLimit(.minutes(10)))
struct OverlayOneRowEmbedsTests {
    @Test(
        "select items are read as embeds: alias, name, hint and join modifiers; plain columns and spreads are not"
    )
    func parsesItems() {
        let items = OneRowEmbeds.items(
            of: QueryDescription.normalizedSelect(
                "id, title::text, user:user_id(*), author:profiles!author_id!inner(name), tags(name), ...owner(name)"
            ),
            foreignKeys: ["tags": "tag_id"])
        #expect(items.map(\.outputKey) == ["user", "author", "tags"])
        #expect(items.map(\.body) == ["user_id(*)", "profiles!author_id!inner(name)", "tags(name)"])
        #expect(items.map(\.columns) == [["user_id"], ["author_id", "profiles"], ["tags", "tag_id"]])
    }

    @Test(
        "a written row takes the object or null a cached row with the same foreign key holds; an array never")
    func fillsFromCachedRows() {
        let list = QueryDescription(table: "messages", select: "*, user:user_id(*)")
        let cached = CachedList(
            query: list,
            rows: [
                ["id": 1, "user_id": "U1", "user": ["name": "Ann"]],
                ["id": 2, "user_id": nil, "user": nil],
                ["id": 3, "user_id": "u3", "user": [["name": "many"]]],
            ])
        let embeds = OneRowEmbeds(list: list, sources: [cached])
        // A UUID-like key in another case, or plain text, is matched as the overlay matches keys.
        #expect(embeds.filling(["id": 4, "user_id": "U1"])["user"] == ["name": "Ann"])
        #expect(embeds.filling(["id": 5, "user_id": nil])["user"] == .null)
        #expect(embeds.filling(["id": 6, "user_id": "u3"])["user"] == nil)
        #expect(embeds.filling(["id": 7, "user_id": "u9"])["user"] == nil)
        // A row that carries the embed keeps its own.
        #expect(
            embeds.filling(["id": 8, "user_id": "U1", "user": ["name": "Own"]])["user"] == ["name": "Own"])
    }

    @Test(
        "a declared relation reads the embedded table's rows: plain columns from any list, * only from a * list"
    )
    func fillsFromDeclaredTable() {
        let profilesAll = CachedList(
            query: QueryDescription(table: "profiles"), rows: [["id": "u1", "name": "Ann", "bio": "x"]],
            fetchTick: 1)
        let profilesNamed = CachedList(
            query: QueryDescription(table: "profiles", select: "id,name"),
            rows: [["id": "u2", "name": "Bob"]],
            fetchTick: 2)
        let related = ["profiles": [profilesAll, profilesNamed]]
        let named = OneRowEmbeds(
            list: QueryDescription(table: "messages", select: "id,profiles(name)"), sources: [],
            foreignKeys: ["profiles": "author_id"], related: related)
        #expect(named.filling(["id": 1, "author_id": "u1"])["profiles"] == ["name": "Ann"])
        #expect(named.filling(["id": 2, "author_id": "u2"])["profiles"] == ["name": "Bob"])
        #expect(named.filling(["id": 3, "author_id": nil])["profiles"] == .null)
        let whole = OneRowEmbeds(
            list: QueryDescription(table: "messages", select: "id,author:profiles!author_id(*)"), sources: [],
            foreignKeys: ["profiles": "author_id"], related: related)
        #expect(
            whole.filling(["id": 1, "author_id": "u1"])["author"] == ["id": "u1", "name": "Ann", "bio": "x"])
        #expect(whole.filling(["id": 2, "author_id": "u2"])["author"] == nil)
    }
}
