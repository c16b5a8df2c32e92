import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// Changes from other devices, handed in as a feed: how each kind lands in the cached lists,
/// under the user's pending writes (issue 31, point 2).
@Suite("Change feed: how a change lands", .timeLimit(.minutes(10)))
struct ClientChangeFeedTests {
    private static let rows: [Row] = [
        ["id": 1, "title": "a", "done": false], ["id": 2, "title": "b", "done": false],
    ]

    /// A fixture following a feed of `tasks`, its feed subscribed and the read's refetch after
    /// it answered; `body` runs with the live read's stream.
    private func following(
        _ read: @escaping @Sendable (OfflineClient) -> ReadQuery = { $0.from("tasks").select() },
        then body: (ClientFixture, TestFeed, LiveList) async throws -> Void
    ) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let feed = TestFeed()
        async let follows: Void = fixture.client.follow(changes: feed.events, tables: ["tasks"])
        let list = LiveList(read(fixture.client))
        defer { list.stop() }
        _ = try await list.first { $0.refresh == .idle }
        feed.send(.subscribed)
        _ = try await fixture.probe.gets(atLeast: 2)
        _ = try await list.first { $0.refresh == .idle && $0.fetchedAt != nil }
        try await body(fixture, feed, list)
        feed.finish()
        try await follows
        await fixture.client.close()
    }

    @Test("an insert from another device joins the lists whose filters admit it, without a fetch")
    func insertJoins() async throws {
        try await following(
            { $0.from("tasks").select().eq("done", value: false) },
            then: { fixture, feed, read in
                feed.send(.insert(["id": 3, "title": "c", "done": true], into: "tasks"))
                feed.send(.insert(["id": 4, "title": "d", "done": false], into: "tasks"))
                let shown = try await read.first { $0.column("id") == ["1", "2", "4"] }
                #expect(shown.refresh == .idle && !shown.hasPendingMutations)
                #expect(fixture.gets.count == 2)
            })
    }

    @Test("an update that makes a row stop matching moves it out; one that starts matching joins")
    func updateMoves() async throws {
        try await following(
            { $0.from("tasks").select().eq("done", value: false) },
            then: { fixture, feed, read in
                feed.send(.update(["id": 1, "title": "a", "done": true], old: ["id": 1], in: "tasks"))
                _ = try await read.first { $0.column("id") == ["2"] }
                feed.send(.update(["id": 1, "title": "a2", "done": false], old: ["id": 1], in: "tasks"))
                let back = try await read.first { $0.column("id") == ["2", "1"] }
                #expect(back.column("title") == ["b", "a2"])
                #expect(fixture.gets.count == 2)
            })
    }

    @Test("a delete carries only the key and removes the row from every list")
    func deleteByKey() async throws {
        try await following { fixture, feed, read in
            let other = LiveList(fixture.client.from("tasks").select().eq("id", value: 2))
            defer { other.stop() }
            _ = try await other.first { $0.column("id") == ["2"] }
            feed.send(.delete(["id": 2], from: "tasks"))
            _ = try await read.first { $0.column("id") == ["1"] }
            _ = try await other.first { $0.result?.rows.isEmpty == true }
        }
    }

    @Test("a change never hides the user's own queued write")
    func pendingWriteStaysOnTop() async throws {
        try await following { fixture, feed, read in
            await fixture.client.disableNetwork()
            try await fixture.client.from("tasks").update(["title": "mine"] as Row).eq("id", value: 1)
                .execute()
            feed.send(.update(["id": 1, "title": "theirs", "done": false], old: ["id": 1], in: "tasks"))
            feed.send(.insert(["id": 5, "title": "e", "done": false], into: "tasks"))
            let shown = try await read.first { $0.column("id") == ["1", "2", "5"] }
            #expect(shown.column("title") == ["mine", "b", "e"] && shown.hasPendingMutations)
        }
    }

    @Test("a filter the engine cannot evaluate fetches the list again instead of guessing")
    func undecidedFetchesAgain() async throws {
        try await following(
            { $0.from("tasks").select().gt("id", value: 0) },
            then: { fixture, feed, read in
                await fixture.server.setRows(
                    Self.rows + [["id": 3, "title": "c", "done": false]], of: "tasks")
                feed.send(.insert(["id": 3, "title": "c", "done": false], into: "tasks"))
                _ = try await fixture.probe.gets(atLeast: 3)
                _ = try await read.first { $0.column("id") == ["1", "2", "3"] }
            })
    }

    @Test("a record cut short (Realtime's errors) fetches the lists again instead of laying a partial row")
    func cutShortFetchesAgain() async throws {
        try await following { fixture, feed, read in
            let full: Row = ["id": 1, "title": .string(String(repeating: "x", count: 64)), "done": false]
            await fixture.server.setRows([full, Self.rows[1]], of: "tasks")
            feed.send(
                .update(["id": 1], old: ["id": 1], in: "tasks", errors: ["Error 413: Payload Too Large"]))
            _ = try await fixture.probe.gets(atLeast: 3)
            let shown = try await read.first { $0.column("title").first?.count == 64 }
            #expect(shown.column("id") == ["1", "2"])
        }
    }

    @Test("a record lacking a column the list reads does not join: the list is fetched again")
    func partialRecordDoesNotJoin() async throws {
        try await following { fixture, feed, read in
            await fixture.server.setRows(Self.rows + [["id": 3, "title": "c", "done": false]], of: "tasks")
            feed.send(.insert(["id": 3, "title": "c"], into: "tasks", columns: ["id", "title", "done"]))
            _ = try await fixture.probe.gets(atLeast: 3)
            let shown = try await read.first { $0.column("id") == ["1", "2", "3"] }
            #expect(shown.column("done") == ["false", "false", "false"])
        }
    }

    @Test("a list with an order or a page is fetched again when a row joins it, since the server places it")
    func orderedListFetchesAgain() async throws {
        try await following(
            { $0.from("tasks").select().order("title").limit(5) },
            then: { fixture, feed, read in
                await fixture.server.setRows(
                    [["id": 0, "title": "0", "done": false]] + Self.rows, of: "tasks")
                feed.send(.insert(["id": 0, "title": "0", "done": false], into: "tasks"))
                _ = try await fixture.probe.gets(atLeast: 3)
                _ = try await read.first { $0.column("id") == ["0", "1", "2"] }
            })
    }

    @Test("an update of a column a list orders by but does not read fetches the list again")
    func unreadOrderColumnFetchesAgain() async throws {
        try await following(
            { $0.from("tasks").select("id,title").order("done") },
            then: { fixture, feed, read in
                let moved: Row = ["id": 1, "title": "a", "done": true]
                await fixture.server.setRows([moved, Self.rows[1]], of: "tasks")
                feed.send(.update(moved, old: ["id": 1], in: "tasks"))
                _ = try await fixture.probe.gets(atLeast: 3)
                _ = try await read.first { $0.column("id") == ["2", "1"] }
            })
    }

    @Test("a change in a named schema fetches again the lists of its table read without a schema")
    func namedSchemaReachesListsWithoutOne() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let feed = TestFeed()
        // Realtime names the schema; the app reads the server's default one, which is it.
        async let follows: Void = fixture.client.follow(
            changes: feed.events, tables: ["tasks"], schema: "api")
        let list = LiveList(fixture.client.from("tasks").select())
        _ = try await list.first { $0.refresh == .idle }
        feed.send(.subscribed)
        _ = try await list.first { $0.refresh == .idle && $0.fetchedAt != nil }
        let added: Row = ["id": 3, "title": "c", "done": false]
        await fixture.server.setRows(Self.rows + [added], of: "tasks")
        feed.send(.insert(added, into: "tasks", schema: "api"))
        _ = try await list.first { $0.column("id") == ["1", "2", "3"] }
        list.stop()
        feed.finish()
        try await follows
        await fixture.client.close()
    }
}
