import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Values made on the device for an upsert: an upsert that meets a row updates every column it
/// sends, so only the columns that tell its row are made and sent, and a value shown only never
/// covers the existing row's own.
@Suite("Rows made offline: values made on the device for an upsert", .timeLimit(.minutes(10)))
struct ClientDeviceValuesUpsertTests {
    private static let settings = TableSettings(key: ["id"], madeOnDevice: ["id": .uuid, "created_at": .now])
    private static let stored: Row = [
        "id": "5d0c1f9e-0b1d-4c5e-9a8f-123456789abc", "user_id": "u", "theme": "light",
        "created_at": "2025-01-01T00:00:00+00:00",
    ]

    private func fixture() async throws -> ClientFixture {
        try await ClientFixture(tables: ["settings": [Self.stored]]) {
            $0.tables = ["settings": Self.settings]
        }
    }

    @Test(
        "an upsert on another conflict column is sent without a key made on the device: the server's row keeps its id"
    )
    func sentWithoutMadeKey() async throws {
        let fixture = try await fixture()
        _ = try await fixture.client.from("settings").select().fetch()
        try await fixture.client.from("settings").upsert(
            ["user_id": "u", "theme": "dark"] as Row, onConflict: "user_id"
        )
        .execute()
        let sent = try #require(fixture.writes.last?.bodyRows.first)
        #expect(sent["id"] == nil, "a made id would replace the existing row's key")
        #expect(sent["created_at"] == nil)
        #expect(await fixture.server.rows(of: "settings") == [Self.stored.merging(["theme": "dark"])])
        await fixture.client.close()
    }

    @Test(
        "a queued upsert merged into a cached row shows the row's own id and created_at, not values made on the device"
    )
    func queuedMergeKeepsRowValues() async throws {
        let fixture = try await fixture()
        let list = fixture.client.from("settings").select()
        _ = try await list.fetch()
        await fixture.client.disableNetwork()
        try await fixture.client.from("settings").upsert(
            ["user_id": "u", "theme": "dark"] as Row, onConflict: "user_id"
        )
        .execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.result?.rows.first?["theme"] == "dark" }
        #expect(shown.result?.rows.map(\.values) == [Self.stored.merging(["theme": "dark"]).values])
        await fixture.client.close()
    }

    @Test("a queued upsert keyed on id that lacks it still gets a made id, sent, and a created_at shown only")
    func keyedUpsertGetsItsKey() async throws {
        let fixture = try await fixture()
        let list = fixture.client.from("settings").select()
        _ = try await list.fetch()
        await fixture.client.disableNetwork()
        try await fixture.client.from("settings").upsert(["user_id": "v", "theme": "dark"] as Row).execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.result?.rows.count == 2 }
        let made = try #require(shown.result?.rows.last)
        #expect(made["id"] != nil && made["created_at"] != nil)
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        let sent = try #require(fixture.writes.last?.bodyRows.first)
        #expect(sent["id"] == made["id"])
        #expect(sent["created_at"] == nil)
        await fixture.client.close()
    }

    @Test(
        "an upsert that ignores duplicates changes no existing row: it gets its made id, sent, as an insert does"
    )
    func ignoringDuplicatesGetsMadeValues() async throws {
        let fixture = try await fixture()
        try await fixture.client.from("settings")
            .upsert(["user_id": "v", "theme": "dark"] as Row, onConflict: "user_id", ignoreDuplicates: true)
            .execute()
        let sent = try #require(fixture.writes.last?.bodyRows.first)
        #expect(sent["id"] != nil)
        #expect(sent["created_at"] == nil, "a time made on the device is shown only")
        await fixture.client.close()
    }
}
