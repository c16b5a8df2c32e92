import Foundation
import Testing

@testable import OfflineEngine

/// A read with `count:` or `head: true` answered once is cached like a list: offline it answers
/// with the cached count, moved by the queued inserts and deletes the overlay can decide.
@Suite("Counts offline", .timeLimit(.minutes(10)))
struct ClientCountOfflineTests {
    private static let rows: [Row] = [
        ["id": 1, "title": "a", "done": false], ["id": 2, "title": "b", "done": false],
        ["id": 3, "title": "c", "done": false], ["id": 4, "title": "d", "done": true],
    ]

    /// The open tasks' badge: a `head: true` count of the tasks not done.
    private static func badge(_ client: OfflineClient) -> ReadQuery {
        client.from("tasks").select("id", head: true, count: .exact).eq("done", value: false)
    }

    /// A client whose badge was answered once online, then taken offline.
    private static func answeredThenOffline() async throws -> (ClientFixture, ReadQuery) {
        let fixture = try await ClientFixture(tables: ["tasks": rows])
        let badge = badge(fixture.client)
        _ = try await badge.execute()
        await fixture.client.disableNetwork()
        return (fixture, badge)
    }

    @Test(
        "a head: true badge read answered once online gives its cached count offline, not ClientError.offline"
    )
    func badgeReadOffline() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let badge = Self.badge(fixture.client)
        let online = try await badge.execute()
        #expect(online.count == 3 && !online.isFromCache)
        await fixture.client.disableNetwork()
        let offline = try await badge.execute()
        #expect(offline.count == 3)
        #expect(offline.isFromCache && !offline.hasPendingMutations && offline.rows.isEmpty)
        #expect(offline.fetchedAt != nil)
        await fixture.client.close()
    }

    @Test(
        "queued inserts the list's filters admit and deletes of them move the cached count; others leave it")
    func queuedWritesMoveTheCount() async throws {
        let (fixture, badge) = try await Self.answeredThenOffline()
        try await fixture.client.from("tasks").insert(["id": 5, "title": "e", "done": false] as Row).execute()
        try await fixture.client.from("tasks").insert(["id": 6, "title": "f", "done": true] as Row).execute()
        let moved = try await badge.execute()
        #expect(moved.count == 4 && moved.isFromCache && moved.hasPendingMutations)
        try await fixture.client.from("tasks").delete().eq("id", value: 5).execute()
        let back = try await badge.execute()
        #expect(back.count == 3 && !back.hasPendingMutations)
        // A delete of a row the count holds but the device does not: the cached count stands.
        try await fixture.client.from("tasks").delete().eq("id", value: 1).execute()
        let undecided = try await badge.execute()
        #expect(undecided.count == 3 && !undecided.hasPendingMutations)
        await fixture.client.close()
    }

    @Test(
        "a row another cached list shows, toggled out of the badge's filter and back offline, leaves the badge where it was; deleted, it leaves the count",
        arguments: ["id", "*"])
    func rowKnownElsewhereMovesTheCount(columns: String) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let badge = fixture.client.from("tasks").select(columns, head: true, count: .exact).eq(
            "done", value: false)
        #expect(try await badge.execute().count == 3)
        _ = try await fixture.client.from("tasks").select().execute()
        await fixture.client.disableNetwork()
        let tasks = fixture.client.from("tasks")
        try await tasks.update(["done": true] as Row).eq("id", value: 1).execute()
        let out = try await badge.execute()
        #expect(out.count == 2 && out.hasPendingMutations)
        try await tasks.update(["done": false] as Row).eq("id", value: 1).execute()
        #expect(try await badge.execute().count == 3)
        try await tasks.delete().eq("id", value: 2).execute()
        #expect(try await badge.execute().count == 2)
        await fixture.client.close()
    }

    @Test(
        "a count read with a range keeps the server's count, moved by queued inserts and deletes of its rows")
    func rangedCountOffline() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let page = fixture.client.from("tasks").select("*", count: .exact).order("id").range(from: 0, to: 1)
        #expect(try await page.execute().count == 4)
        await fixture.client.disableNetwork()
        let cached = try await page.execute()
        #expect(cached.count == 4 && cached.isFromCache && cached.rows.count == 2)
        try await fixture.client.from("tasks").insert(["id": 5, "title": "e", "done": false] as Row).execute()
        #expect(try await page.execute().count == 5)
        try await fixture.client.from("tasks").delete().eq("id", value: 2).execute()
        let after = try await page.execute()
        #expect(after.count == 4 && after.hasPendingMutations)
        await fixture.client.close()
    }

    @Test(
        "a count read never answered on this device says nothing is saved for it, not that it is online only")
    func neverAnsweredCount() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        _ = try await fixture.client.from("tasks").select().execute()
        await fixture.client.disableNetwork()
        let error = await #expect(throws: ClientError.self) {
            try await fixture.client.from("tasks").select("id", head: true, count: .exact).eq(
                "done", value: true
            )
            .execute()
        }
        #expect(error == .notCached && error != .offline)
        #expect(
            error?.description.lowercased().contains("nothing is saved on this device for this read yet")
                == true)
        await fixture.client.close()
    }

    @Test("the cached count survives a relaunch while offline, and the queued insert still moves it")
    func countAcrossRelaunch() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture(tables: ["tasks": Self.rows], storage: .directory(folder))
            let badge = Self.badge
            _ = try await badge(first.client).execute()
            await first.client.disableNetwork()
            try await first.client.from("tasks").insert(["id": 5, "title": "e", "done": false] as Row)
                .execute()
            await first.client.close()

            await first.server.setReachable(false)
            let second = try await ClientFixture(
                storage: .directory(folder), server: first.server, probe: ServerProbe())
            let offline = try await badge(second.client).execute()
            #expect(offline.count == 4 && offline.isFromCache && offline.hasPendingMutations)
            await second.client.close()
        }
    }

    @Test("the head read's cached count does not replace the rows of the same read cached without head")
    func headListApartFromRows() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        _ = try await fixture.client.from("tasks").select("id").execute()
        _ = try await fixture.client.from("tasks").select("id", head: true, count: .exact).execute()
        await fixture.client.disableNetwork()
        let rows = try await fixture.client.from("tasks").select("id").execute()
        #expect(rows.rows.count == 4)
        #expect(
            try await fixture.client.from("tasks").select("id", head: true, count: .exact).execute().count
                == 4)
        await fixture.client.close()
    }

    @Test(
        "an insert sent at once is laid into the count's list, so the count shown offline afterwards holds it"
    )
    func onlineInsertMovesTheCachedCount() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let badge = Self.badge(fixture.client)
        _ = try await badge.execute()
        let sent = try await fixture.client.from("tasks").insert(
            ["id": 5, "title": "e", "done": false] as Row
        )
        .execute()
        #expect(!sent.isQueued)
        await fixture.client.disableNetwork()
        let offline = try await badge.execute()
        #expect(offline.count == 4 && offline.isFromCache && !offline.hasPendingMutations)
        await fixture.client.close()
    }

    @Test(
        "a queued upsert leaves a head read's count as cached: the device cannot tell whether its row is counted"
    )
    func upsertLeavesHeadCount() async throws {
        let (fixture, badge) = try await Self.answeredThenOffline()
        try await fixture.client.from("tasks").upsert(["id": 1, "title": "a2", "done": false] as Row)
            .execute()
        let offline = try await badge.execute()
        #expect(offline.count == 3 && !offline.hasPendingMutations)
        await fixture.client.close()
    }

    @Test("a read with a range cached before it asked for a count has no count offline")
    func rangedNeverCounted() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        _ = try await fixture.client.from("tasks").select().order("id").range(from: 0, to: 1).execute()
        await fixture.client.disableNetwork()
        let page = try await fixture.client.from("tasks").select("*", count: .exact).order("id").range(
            from: 0, to: 1
        )
        .execute()
        #expect(page.count == nil && page.isFromCache && page.rows.count == 2)
        await fixture.client.close()
    }
}
