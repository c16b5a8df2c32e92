import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A live read's first snapshot reads only its own cached list; the table's other lists are read
/// when a write may need them. These tests show the overlay still reaches rows of those lists.
@Suite("Live reads load their own list first", .timeLimit(.minutes(10)))
struct LiveReadLoadingTests {
    private static let rows: [Row] = [
        ["id": 1, "done": false, "title": "a"], ["id": 2, "done": true, "title": "b"],
    ]

    /// A client on `folder` that has cached the open and the done tasks (still open).
    private static func cacheBothLists(in folder: URL) async throws -> ClientFixture {
        let fixture = try await ClientFixture(tables: ["tasks": rows], storage: .directory(folder))
        _ = try await fixture.client.from("tasks").select().eq("done", value: false).fetch()
        _ = try await fixture.client.from("tasks").select().eq("done", value: true).fetch()
        return fixture
    }

    @Test(
        "after a relaunch, an UPDATE queued once a read has shown its own list moves in a row of another cached list"
    )
    func updateAfterOwnListMovesRowsIn() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.cacheBothLists(in: folder)
            await first.client.close()

            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: "user-1", server: first.server, probe: ServerProbe())
            await second.client.disableNetwork()
            let open = second.client.from("tasks").select().eq("done", value: false)
            // One reader throughout: a new reader joining would itself read the other lists.
            let log = AsyncLog<QuerySnapshot>()
            let watching = collect(open.snapshots(), into: log)
            _ = try await withTimeout(30) {
                var seen = log.values
                while seen.last?.column("id") != ["1"] {
                    seen = try await log.values(atLeast: seen.count + 1)
                }
            }
            _ = try await second.client.from("tasks").update(["done": false] as Row).eq("id", value: 2)
                .execute()
            let shown = try await withTimeout(30) {
                var seen = log.values
                while seen.last?.column("id").contains("2") != true {
                    seen = try await log.values(atLeast: seen.count + 1)
                }
                return seen.last!
            }
            #expect(shown.column("id") == (try await open.fetch()).rows.map { $0["id"]?.rawValue ?? "-" })
            #expect(shown.hasPendingMutations)
            watching.cancel()
            await watching.value
            await second.client.close()
        }
    }

    @Test("after a relaunch with an UPDATE already queued, a read's first snapshot has the row it moves in")
    func queuedUpdateAtLaunch() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.cacheBothLists(in: folder)
            await first.client.disableNetwork()
            _ = try await first.client.from("tasks").update(["done": false] as Row).eq("id", value: 2)
                .execute()
            await first.client.close()

            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: "user-1", server: first.server, probe: ServerProbe())
            await second.client.disableNetwork()
            let open = second.client.from("tasks").select().eq("done", value: false)
            let firstShown = try await firstValue(of: open.snapshots()) { $0.result != nil }
            #expect(firstShown.column("id") == ["1", "2"])
            await second.client.close()
        }
    }
}
