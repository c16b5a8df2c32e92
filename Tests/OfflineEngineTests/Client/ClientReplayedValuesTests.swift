import Foundation
import Testing

@testable import OfflineEngine

/// The reference's tip: "A write that waited in the queue does not use [the server's values], so
/// its replay brings nothing back: the list shows the server's values once it is fetched again."
@Suite("A replayed write brings back none of the server's values", .timeLimit(.minutes(10)))
struct ClientReplayedValuesTests {
    @Test(
        "a queued insert asking for its rows: replayed, the cached list shows the row as written until it is fetched"
    )
    func replayBringsNothingBack() async throws {
        let rows: [Row] = [["id": 1, "done": false], ["id": 2, "done": true]]
        let fixture = try await ClientFixture(tables: ["tasks": rows])
        let tasks = fixture.client.from("tasks").select()
        #expect(try await tasks.fetch().rows.count == 2)
        await fixture.client.disableNetwork()
        _ = try await fixture.client.from("tasks").insert(["id": 3, "done": false] as Row).select().execute()
        // The server fills a column in (a default, a trigger) and sends it back.
        let stored: Row = ["id": 3, "done": false, "created_at": "by-server"]
        fixture.probe.answer { request in
            request.method == .post ? jsonResponse([stored], status: 201) : nil
        }
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.count == 1)
        await fixture.server.setRows(rows + [stored], of: "tasks")

        await fixture.client.disableNetwork()
        let cached = try await tasks.fetch()
        #expect(cached.isFromCache)
        #expect(cached.rows.map { $0["id"] } == [1, 2, 3])
        #expect(cached.rows.last?["created_at"] == nil)

        await fixture.client.enableNetwork()
        let fetched = try await tasks.fetch()
        #expect(!fetched.isFromCache)
        #expect(fetched.rows.last?["created_at"] == "by-server")
        await fixture.client.close()
    }
}

/// The reference's limit: "A queued row carries only the columns it wrote … which can fail a
/// decode of the whole list"; the server's columns come with the next fetch.
@Suite("A queued row lacking a column the list decodes", .timeLimit(.minutes(10)))
struct ClientQueuedRowDecodeTests {
    @Test(
        "a list decoding created_at as non-optional fails while a queued row lacks it, and decodes once fetched"
    )
    func listDecodeFailsUntilFetched() async throws {
        let id = "5b1f0a1e-0000-4000-8000-000000000001"
        let first: Row = ["id": .string(id), "name": "general", "created_at": "2026-12-01T10:00:00Z"]
        let fixture = try await ClientFixture(tables: ["channels": [first]])
        let channels = fixture.client.from("channels").select()
        let online: [Channel] = try await channels.execute().value
        #expect(online.count == 1)
        await fixture.client.disableNetwork()
        let made = "5b1f0a1e-0000-4000-8000-000000000002"
        _ = try await fixture.client.from("channels").insert(["id": .string(made), "name": "random"] as Row)
            .execute()
        await #expect(throws: (any Error).self) {
            let _: [Channel] = try await channels.execute().value
        }
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        // The server filled the column in (its default).
        let stored: Row = ["id": .string(made), "name": "random", "created_at": "2026-12-02T10:00:00Z"]
        await fixture.server.setRows([first, stored], of: "channels")
        let fetched: [Channel] = try await channels.execute().value
        #expect(fetched.map(\.name) == ["general", "random"])
        await fixture.client.close()
    }
}
