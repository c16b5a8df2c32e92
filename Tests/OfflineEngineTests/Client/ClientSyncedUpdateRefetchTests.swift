import Foundation
import Testing

@testable import OfflineEngine

/// The overlay reference keeps a row read with other columns out of a list an UPDATE moves it
/// into; once that UPDATE has synced, the list is fetched again (`refetchIsDue`), whether or not
/// the table's queue drained.
@Suite("A synced update the lists cannot show without a fetch", .timeLimit(.minutes(10)))
struct ClientSyncedUpdateRefetchTests {
    /// PostgREST's answer while its schema cache is unavailable: a transient failure.
    static func transient(_ request: HTTPRequest) -> HTTPResponse? {
        request.method == .get ? nil : errorResponse(status: 503, code: "PGRST002")
    }

    @Test(
        "an update that syncs while its table still has queued writes fetches again the list it would move a row read with other columns into, once"
    )
    func syncedUpdateFetchesTheListItCannotShow() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a", "done": false]]])
        let open = fixture.client.from("tasks").select("id,done").eq("done", value: false).snapshots()
        let done = fixture.client.from("tasks").select().eq("done", value: true).snapshots()
        _ = try await firstValue(of: open) { $0.refresh == .idle && $0.column("id") == ["1"] }
        _ = try await firstValue(of: done) { $0.refresh == .idle }
        // The server refuses writes for now: both queue, the insert behind the update.
        fixture.probe.answer { Self.transient($0) }
        _ = try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 1).execute()
        _ = try await fixture.client.from("tasks").insert(["id": 2, "title": "b", "done": false] as Row)
            .execute()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 2 }
        // Queued, the update moves row 1 out of `open` (the insert joins it), but cannot move it
        // into `done`: `open` read it without its title.
        _ = try await firstValue(of: open) { $0.column("id") == ["2"] && $0.hasPendingMutations }
        let shown = await fixture.current(fixture.client.from("tasks").select().eq("done", value: true))
        #expect(shown?.column("id") == [])
        let before = fixture.gets.count
        // The update is applied; the insert keeps failing, so the table's queue does not drain.
        fixture.probe.answer { $0.method == .post ? Self.transient($0) : nil }
        await fixture.client.syncNow()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 1 }
        let fetched = try await firstValue(of: done) { $0.column("title") == ["a"] && $0.refresh == .idle }
        #expect(fetched.column("id") == ["1"])
        // Only `done` fetched again, and only once.
        let gets = try await fixture.probe.gets(atLeast: before + 1)
        #expect(gets[before...].allSatisfy { $0.url.absoluteString.contains("done=eq.true") })
        #expect(fixture.gets.count == before + 1)
        await fixture.client.close()
    }
}
