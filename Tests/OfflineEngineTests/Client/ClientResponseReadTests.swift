import Foundation
import Testing

@testable import OfflineEngine

/// A task as an app decodes it.
private struct Item: Codable, Hashable, Sendable {
    var id: Int
    var title: String
}

@Suite("execute() on reads: value, single, count, head", .timeLimit(.minutes(10)))
struct ClientResponseReadTests {
    private static let rows: [Row] = [
        ["id": 1, "title": "a"], ["id": 2, "title": "b"], ["id": 3, "title": "c"],
    ]

    @Test("execute().value decodes the server's rows; offline the device's, with the user's queued writes")
    func valueOnlineAndOffline() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let read = fixture.client.from("tasks").select().order("id")
        let online: ReadResponse<[Item]> = try await read.execute()
        #expect(online.value.map(\.id) == [1, 2, 3])
        #expect(!online.isFromCache)
        await fixture.client.disableNetwork()
        _ = try await fixture.client.from("tasks").insert(Item(id: 4, title: "d")).execute()
        let offline: ReadResponse<[Item]> = try await read.execute()
        #expect(offline.value.map(\.id) == [1, 2, 3, 4])
        #expect(offline.isFromCache && offline.hasPendingMutations)
        await fixture.client.close()
    }

    @Test(
        "single() decodes the one row; none or several throw PGRST116 (406), from the server and the cache alike"
    )
    func single() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let one: Item = try await fixture.client.from("tasks").select().eq("id", value: 2).single().execute()
            .value
        #expect(one == Item(id: 2, title: "b"))
        let none = fixture.client.from("tasks").select().eq("id", value: 9).single()
        let several = fixture.client.from("tasks").select().gt("id", value: 1).single()
        for query in [none, several] {
            _ = try? await query.execute()  // cached, so the offline read below has rows to judge
            await #expect(throws: PostgrestError.self) { _ = try await query.execute() as ReadResponse<Item> }
        }
        await fixture.client.disableNetwork()
        for query in [none, several] {
            let error = await #expect(throws: PostgrestError.self) { try await query.execute() }
            #expect(error?.status == 406 && error?.code == "PGRST116")
            // As PostgREST words it now: data layers match on the message.
            #expect(error?.message == "Cannot coerce the result to a single JSON object")
            #expect(error?.details?.hasPrefix("The result contains ") == true)
        }
        // A single read asks for rows as JSON: the engine judges the count, so the list can be cached.
        #expect(fixture.gets.allSatisfy { $0.headers["Accept"] == "application/json" })
        await fixture.client.close()
    }

    @Test("maybeSingle() decodes nil for no row and the row for one; several throw PGRST116")
    func maybeSingle() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let none: Item? = try await fixture.client.from("tasks").select().eq("id", value: 9).maybeSingle()
            .execute()
            .value
        #expect(none == nil)
        let one: Item? = try await fixture.client.from("tasks").select().eq("id", value: 3).maybeSingle()
            .execute()
            .value
        #expect(one?.title == "c")
        await #expect(throws: PostgrestError.self) {
            try await fixture.client.from("tasks").select().maybeSingle().execute()
        }
        await fixture.client.close()
    }

    @Test("select(count: .exact) asks for the count and reads the total from Content-Range")
    func exactCount() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let page: ReadResponse<[Item]> = try await fixture.client.from("tasks").select("*", count: .exact)
            .order("id").range(from: 0, to: 1).execute()
        #expect(page.value.count == 2)
        #expect(page.count == 3)
        #expect(fixture.gets.last?.headers["Prefer"] == "count=exact")
        await fixture.client.close()
    }

    @Test("head: true sends HEAD and gets the count alone; the cached list of the same read keeps its rows")
    func headCount() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let rows = try await fixture.client.from("tasks").select().execute()
        #expect(rows.rows.count == 3)
        let head = try await fixture.client.from("tasks").select("*", head: true, count: .exact).execute()
        #expect(head.count == 3 && head.rows.isEmpty)
        #expect(fixture.probe.requests.last?.method == .head)
        await fixture.client.disableNetwork()
        let cached = try await fixture.client.from("tasks").select().execute()
        #expect(cached.isFromCache && cached.rows.count == 3)
        await fixture.client.close()
    }

    @Test(
        "offline, the count of a read without a range is the rows the device shows; with a range, the server's moved by the insert"
    )
    func countFromCache() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let whole = fixture.client.from("tasks").select("*", count: .exact)
        let ranged = whole.range(from: 0, to: 0)
        _ = try await whole.execute()
        _ = try await ranged.execute()
        await fixture.client.disableNetwork()
        _ = try await fixture.client.from("tasks").insert(Item(id: 4, title: "d")).execute()
        #expect(try await whole.execute().count == 4)
        #expect(try await ranged.execute().count == 4)
        await fixture.client.close()
    }

    @Test("the client's decoder decodes values: a snake_case decoder reads snake_case columns")
    func configuredDecoder() async throws {
        struct Dated: Decodable { var dueAt: Date }
        let fixture = try await ClientFixture(tables: [
            "tasks": [["id": 1, "due_at": "2023-11-14T22:13:20.123+00:00"]]
        ]) {
            let decoder = Configuration.defaultDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            $0.decoder = decoder
        }
        let value: [Dated] = try await fixture.client.from("tasks").select().execute().value
        let seconds = try #require(value.first?.dueAt.timeIntervalSince1970)
        #expect(abs(seconds - 1_700_000_000.123) < 0.000_5)
        await fixture.client.close()
    }
}
