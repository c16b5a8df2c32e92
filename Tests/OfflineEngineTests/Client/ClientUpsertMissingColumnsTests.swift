import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Rows of one write with different columns: PostgREST gets `columns=` with every row's keys and
/// sets a column a row leaves out to NULL (unless `missing=default`), so the rows shown are the
/// rows as the server applies them.
@Suite("Rows of one write with different columns", .timeLimit(.minutes(10)))
struct ClientUpsertMissingColumnsTests {
    private static let stored: Row = ["id": 1, "title": "a", "note": "keep"]
    /// As `JSONEncoder` leaves out a nil optional: the first row has no `note`.
    private static let rows: [Row] = [["id": 1, "title": "a2"], ["id": 2, "title": "b", "note": "n"]]

    private static func notes(_ rows: [Row]?) -> [JSONValue?] {
        (rows ?? []).map { $0["note"] }
    }

    @Test(
        "a merging upsert whose row leaves out a column another row sends shows NULL there, queued or accepted"
    )
    func mergedRowShowsNull() async throws {
        for online in [false, true] {
            let fixture = try await ClientFixture(tables: ["tasks": [Self.stored]])
            let list = fixture.client.from("tasks").select().order("id")
            _ = try await list.fetch()
            if !online { await fixture.client.disableNetwork() }
            _ = try await fixture.client.from("tasks").upsert(Self.rows).execute()
            let shown = try await firstValue(of: list.snapshots()) { $0.result?.rows.count == 2 }
            #expect(Self.notes(shown.result?.rows.map { $0 }) == [.null, "n"], "online: \(online)")
            if online {
                #expect(Self.notes(await fixture.server.rows(of: "tasks")) == [.null, "n"])
            }
            await fixture.client.close()
        }
    }

    @Test(
        "with missing=default the column a row leaves out is not shown as NULL (the default is the server's)")
    func missingDefaultKeepsItOut() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [Self.stored]])
        let list = fixture.client.from("tasks").select().order("id")
        _ = try await list.fetch()
        await fixture.client.disableNetwork()
        _ = try await fixture.client.from("tasks").upsert(Self.rows).useDefaultsForMissingColumns().execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.result?.rows.count == 2 }
        #expect(shown.result?.rows.first?["note"] != .null)
        await fixture.client.close()
    }
}
