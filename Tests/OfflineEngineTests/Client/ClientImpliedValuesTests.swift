import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A list's own filters tell the overlay what its rows hold: a list of one user's likes that does
/// not select `user_id` still has each row's `user_id` for a queued delete or upsert to decide.
@Suite("Values a list's own filters imply", .timeLimit(.minutes(10)))
struct ClientImpliedValuesTests {
    static let user = "u-1"

    private static func fixture() async throws -> ClientFixture {
        try await ClientFixture(
            tables: [
                "likes": [
                    ["user_id": .string(user), "post_id": "p1", "reps": 3],
                    ["user_id": .string(user), "post_id": "p2", "reps": 4],
                    ["user_id": "u-2", "post_id": "p1", "reps": 9],
                ]
            ],
            primaryKeys: ["likes": ["user_id", "post_id"]])
    }

    /// The user's likes in post order, read once, then the network known down.
    private static func likesReadOffline(_ fixture: ClientFixture, columns: String = "post_id") async throws
        -> ReadQuery
    {
        let list = fixture.client.from("likes").select(columns).eq("user_id", value: user).order("post_id")
        _ = try await list.fetch()
        await fixture.client.disableNetwork()
        return list
    }

    @Test(
        "a queued delete by user_id and post_id removes the row from a list filtered on user_id that does not select it"
    )
    func deleteDecidedByTheListsFilter() async throws {
        let fixture = try await Self.fixture()
        let list = fixture.client.from("likes").select("post_id").eq("user_id", value: Self.user).order(
            "post_id")
        #expect(try await list.fetch().rows.map { $0["post_id"] } == ["p1", "p2"])
        await fixture.client.disableNetwork()
        try await fixture.client.from("likes").delete().eq("user_id", value: Self.user).eq(
            "post_id", value: "p1"
        )
        .execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.hasPendingMutations }
        #expect(shown.result?.rows.map { $0["post_id"] } == ["p2"])
        await fixture.client.close()
    }

    @Test("another user's value decides nothing: the row stays")
    func otherValueDecidesNothing() async throws {
        let fixture = try await Self.fixture()
        let list = try await Self.likesReadOffline(fixture)
        try await fixture.client.from("likes").delete().eq("user_id", value: "u-2").eq("post_id", value: "p1")
            .execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.result != nil }
        #expect(shown.result?.rows.map { $0["post_id"] } == ["p1", "p2"])
        await fixture.client.close()
    }

    @Test(
        "an upsert on the conflict columns user_id,post_id merges into the list's row instead of joining as a second"
    )
    func upsertMergesByImpliedConflictColumns() async throws {
        let fixture = try await Self.fixture()
        let list = try await Self.likesReadOffline(fixture, columns: "post_id,reps")
        let row: Row = ["user_id": .string(Self.user), "post_id": "p1", "reps": 5]
        try await fixture.client.from("likes").upsert(row, onConflict: "user_id,post_id").execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.hasPendingMutations }
        #expect(shown.result?.rows.count == 2)
        #expect(shown.result?.rows.first?["reps"] == 5)
        await fixture.client.close()
    }

    @Test("a row a queued insert added is not decided by the list's filter: a later delete leaves it")
    func writtenRowsAreNotImplied() async throws {
        let fixture = try await Self.fixture()
        let list = try await Self.likesReadOffline(fixture)
        try await fixture.client.from("likes").insert(["post_id": "p3"] as Row).execute()
        try await fixture.client.from("likes").delete().eq("user_id", value: Self.user).eq(
            "post_id", value: "p3"
        )
        .execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.hasPendingMutations }
        #expect(shown.result?.rows.map { $0["post_id"] } == ["p1", "p2", "p3"])
        await fixture.client.close()
    }

    @Test(
        "a list filtered is(archived_at, null) that does not select archived_at: a queued delete filtered the same way removes its row"
    )
    func isFilterImpliesNull() async throws {
        let fixture = try await ClientFixture(tables: [
            "tasks": [
                ["id": 1, "title": "a", "archived_at": nil], ["id": 2, "title": "b", "archived_at": nil],
            ]
        ])
        let list = fixture.client.from("tasks").select("id,title").is("archived_at", value: nil).order("id")
        #expect(try await list.fetch().rows.map { $0["id"] } == [1, 2])
        await fixture.client.disableNetwork()
        try await fixture.client.from("tasks").delete().is("archived_at", value: nil).eq("id", value: 1)
            .execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.hasPendingMutations }
        #expect(shown.result?.rows.map { $0["id"] } == [2])
        await fixture.client.close()
    }
}
