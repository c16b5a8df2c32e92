import Foundation
import Testing

@testable import OfflineEngine

/// The reference's limit on rows read with other columns, through the client: a row known only
/// from a narrow list never joins a `select()` list, which is fetched again instead.
@Suite("Read shapes through the client", .timeLimit(.minutes(10)))
struct ClientReadShapeTests {
    static let rows: [Row] = [
        ["id": 1, "title": "A", "done": false],
        ["id": 2, "title": "B", "done": true],
    ]

    /// Reads only `id` and `done` of the open tasks.
    static func narrowOpen(_ client: OfflineClient) -> ReadQuery {
        client.from("tasks").select("id,done").eq("done", value: false)
    }

    /// Reads every column of the done tasks.
    static func fullDone(_ client: OfflineClient) -> ReadQuery {
        client.from("tasks").select().eq("done", value: true)
    }

    /// Whether a request is the GET of the full list of done tasks.
    static func isFullDoneGet(_ request: HTTPRequest) -> Bool {
        guard request.method == .get,
            let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems
        else { return false }
        return items.contains { $0.name == "select" && $0.value == "*" }
            && items.contains { $0.name == "done" && $0.value == "eq.true" }
    }

    @Test(
        "A row read with other columns never joins a list, which is fetched again instead: a queued update"
    )
    func queuedUpdateRefetchesOnceSynced() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let narrow = Self.narrowOpen(fixture.client)
        let full = Self.fullDone(fixture.client)
        let narrowStream = narrow.snapshots()
        let fullStream = full.snapshots()
        _ = try await firstValue(of: narrowStream) { $0.refresh == .idle }
        _ = try await firstValue(of: fullStream) { $0.refresh == .idle }
        await fixture.client.disableNetwork()
        let result = try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 1)
            .execute().outcome
        guard case .queued = result else {
            Issue.record("the update was not queued: \(result)")
            return
        }
        // The row leaves the narrow list; it does not join the full one with only id and done.
        _ = try await firstValue(of: narrowStream) { $0.column("id") == [] && $0.hasPendingMutations }
        let whileQueued = await fixture.current(full)
        #expect(whileQueued?.column("id") == ["2"])
        #expect(whileQueued?.hasPendingMutations == false)
        #expect(whileQueued?.refresh == .idle)
        // Not fetched while the write waits: the server's rows cannot show it yet.
        let fullGetsBefore = fixture.probe.requests.filter(Self.isFullDoneGet).count
        #expect(fullGetsBefore == 1)

        await fixture.client.enableNetwork()
        let synced = try await firstValue(of: fullStream, within: 10) {
            $0.column("id").sorted() == ["1", "2"] && $0.refresh == .idle
        }
        #expect(synced.row(id: 1) == ["id": 1, "title": "A", "done": true])
        #expect(!synced.hasPendingMutations)
        let requests = fixture.probe.requests
        let patch = try #require(requests.firstIndex { $0.method == .patch })
        #expect(requests[(patch + 1)...].contains(where: Self.isFullDoneGet))
        await fixture.client.close()
    }

    @Test(
        "A row read with other columns never joins a list, which is fetched again instead: an online update"
    )
    func onlineUpdateWithNarrowAnswerRefetches() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let narrowStream = Self.narrowOpen(fixture.client).snapshots()
        let fullStream = Self.fullDone(fixture.client).snapshots()
        _ = try await firstValue(of: narrowStream) { $0.refresh == .idle }
        _ = try await firstValue(of: fullStream) { $0.refresh == .idle }
        let fullGetsBefore = fixture.probe.requests.filter(Self.isFullDoneGet).count
        let result = try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 1)
            .select("id,done").execute()
        #expect(result.rows == [["id": 1, "done": true]])
        _ = try await firstValue(of: narrowStream) { $0.column("id") == [] }
        // The first snapshot of the full list that holds the row holds all of it.
        let joined = try await firstValue(of: fullStream, within: 10) { $0.column("id").contains("1") }
        #expect(joined.row(id: 1) == ["id": 1, "title": "A", "done": true])
        if joined.refresh != .idle {
            _ = try await firstValue(of: fullStream, within: 10) { $0.refresh == .idle }
        }
        #expect(fixture.probe.requests.filter(Self.isFullDoneGet).count == fullGetsBefore + 1)
        await fixture.client.close()
    }
}
