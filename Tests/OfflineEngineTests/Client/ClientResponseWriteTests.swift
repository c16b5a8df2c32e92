import Foundation
import Testing

@testable import OfflineEngine

/// A task as an app encodes and decodes it.
private struct Item: Codable, Hashable, Sendable {
    var id: Int
    var title: String
    var done = false
}

@Suite("execute() on writes: value, returning, count, single, queued rows", .timeLimit(.minutes(10)))
struct ClientResponseWriteTests {
    private static let rows: [Row] = [
        ["id": 1, "title": "a", "done": false], ["id": 2, "title": "b", "done": false],
        ["id": 3, "title": "c", "done": true],
    ]

    @Test(
        "a typed execute() asks for the rows back and decodes the server's; the untyped one sends return=minimal"
    )
    func typedAsksForRows() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": []])
        let saved: [Item] = try await fixture.client.from("tasks").insert(Item(id: 1, title: "a")).execute()
            .value
        #expect(saved == [Item(id: 1, title: "a")])
        #expect(fixture.writes.last?.headers["Prefer"] == "return=representation")
        try await fixture.client.from("tasks").insert(Item(id: 2, title: "b")).execute()
        #expect(fixture.writes.last?.headers["Prefer"] == "return=minimal")
        let minimal: [Item] = try await fixture.client.from("tasks")
            .insert(Item(id: 3, title: "c"), returning: .minimal).execute().value
        #expect(minimal.isEmpty)
        #expect(fixture.writes.last?.headers["Prefer"] == "return=minimal")
        await fixture.client.close()
    }

    @Test("count: asks PostgREST to count the rows written and reads it from Content-Range")
    func writeCount() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let response = try await fixture.client.from("tasks").delete(count: .exact).eq("done", value: false)
            .execute()
        #expect(response.count == 2)
        #expect(fixture.writes.last?.headers["Prefer"] == "return=minimal,count=exact")
        await fixture.client.close()
    }

    @Test("single() on a write sends one-object Accept: a write matching several is refused and rolled back")
    func singleWriteRollsBack() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let done: Item = try await fixture.client.from("tasks").update(["done": true] as Row).eq(
            "id", value: 1
        )
        .single().execute().value
        #expect(done == Item(id: 1, title: "a", done: true))
        let error = await #expect(throws: PostgrestError.self) {
            _ =
                try await fixture.client.from("tasks").update(["title": "x"] as Row).lt("id", value: 3)
                .single()
                .execute() as WriteResponse<Item>
        }
        #expect(error?.code == "PGRST116")
        #expect(await fixture.server.rows(of: "tasks").filter { $0["title"] == "x" }.isEmpty)
        #expect(fixture.writes.last?.headers["Accept"] == "application/vnd.pgrst.object+json")
        await fixture.client.close()
    }

    @Test("a queued insert's value decodes the rows as written, and its count is their number")
    func queuedInsert() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": []])
        await fixture.client.disableNetwork()
        let response: WriteResponse<[Item]> = try await fixture.client.from("tasks")
            .insert([Item(id: 1, title: "a"), Item(id: 2, title: "b")], count: .exact).execute()
        #expect(response.isQueued)
        #expect(response.value.map(\.id) == [1, 2])
        #expect(response.count == 2)
        let one: Item = try await fixture.client.from("tasks").insert(Item(id: 3, title: "c")).select()
            .single()
            .execute().value
        #expect(one.id == 3)
        await fixture.client.close()
    }

    @Test(
        "a queued update's value decodes the device's matching rows with the patch; a delete's, the rows as they were"
    )
    func queuedUpdateAndDelete() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        _ = try await fixture.client.from("tasks").select().execute()
        await fixture.client.disableNetwork()
        // An earlier queued write is laid first: the update reaches the row it added.
        _ = try await fixture.client.from("tasks").insert(Item(id: 4, title: "d")).execute()
        let updated: [Item] = try await fixture.client.from("tasks").update(["done": true] as Row)
            .eq("done", value: false).execute().value
        #expect(updated.map(\.id).sorted() == [1, 2, 4])
        #expect(updated.allSatisfy { $0.done })
        let deleted: WriteResponse<[Item]> = try await fixture.client.from("tasks").delete().eq(
            "id", value: 3
        )
        .execute()
        #expect(deleted.isQueued && deleted.value == [Item(id: 3, title: "c", done: true)])
        // A row whose match the device cannot tell is left out.
        let unknown: [Item] = try await fixture.client.from("tasks").delete().textSearch("title", query: "a")
            .execute().value
        #expect(unknown.isEmpty)
        await fixture.client.close()
    }

    @Test("the client's encoder encodes values: a snake_case encoder sends snake_case columns")
    func configuredEncoder() async throws {
        struct Due: Encodable {
            var id: Int
            var dueAt: Date
        }
        let fixture = try await ClientFixture(tables: ["tasks": []]) {
            let encoder = Configuration.defaultEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            $0.encoder = encoder
        }
        try await fixture.client.from("tasks").insert(
            Due(id: 1, dueAt: Date(timeIntervalSince1970: 1_700_000_000.123))
        )
        .execute()
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "due_at": "2023-11-14T22:13:20.123Z"]])
        await fixture.client.close()
    }

    @Test("maybeSingle() on a write: no row matched is nil; several are refused and rolled back")
    func maybeSingleWrite() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let none: Item? = try await fixture.client.from("tasks").update(["title": "x"] as Row).eq(
            "id", value: 9
        )
        .maybeSingle().execute().value
        #expect(none == nil)
        await #expect(throws: PostgrestError.self) {
            try await fixture.client.from("tasks").update(["title": "x"] as Row).lt("id", value: 3)
                .maybeSingle()
                .select().execute()
        }
        #expect(await fixture.server.rows(of: "tasks") == Self.rows)
        await fixture.client.close()
    }

    @Test("a queued single() write whose row the device does not hold throws queuedWithoutRow, and is queued")
    func queuedSingleWithoutRow() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        await fixture.client.disableNetwork()
        await #expect(throws: ClientError.queuedWithoutRow) {
            _ =
                try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 2)
                .single()
                .execute() as WriteResponse<Item>
        }
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 1 } == 1)
        await fixture.client.close()
    }
}
