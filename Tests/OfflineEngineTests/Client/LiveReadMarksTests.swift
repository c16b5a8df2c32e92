import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A snapshot's marks (`pendingRowIDs`) come from the composition that made its rows, so a row
/// and its mark never disagree.
@Suite("Live read marks", .timeLimit(.minutes(10)))
struct LiveReadMarksTests {
    @Test(
        "every snapshot marks exactly the rows queued writes touch, through random writes and user switches")
    func marksFollowRows() async throws {
        // Server rows carry v = 0; every queued write sets v to its step, so a row shows v > 0
        // exactly when a queued write of the signed-in user touches it.
        let rows: [Row] = (1...20).map { ["id": .number(JSONNumber($0)), "v": 0, "title": "server"] }
        let fixture = try await ClientFixture(tables: ["tasks": rows])
        let client = fixture.client
        let query = client.from("tasks").select()
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(query.snapshots(), into: log)
        _ = try await firstValue(of: query.snapshots()) { $0.refresh == .idle && $0.column("id").count == 20 }
        await client.disableNetwork()
        var random = SeededRandom(seed: 32)
        for step in 1...150 {
            let id = Int.random(in: 1...30, using: &random)
            let row: Row = ["id": .number(JSONNumber(id)), "v": .number(JSONNumber(step)), "title": "device"]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: _ = try await client.from("tasks").insert(row).execute()
            case 4..<6: _ = try await client.from("tasks").upsert(row).execute()
            case 6..<8:
                _ = try await client.from("tasks").update(["v": .number(JSONNumber(step))]).eq(
                    "id", value: id
                )
                .execute()
            case 8: _ = try await client.from("tasks").delete().eq("id", value: id).execute()
            default: try await client.signIn(ClientFixture.session(random.pick(["user-1", "user-2"])))
            }
        }
        // A last write the reader must see: every snapshot before it is in the log then.
        try await client.signIn(ClientFixture.session("user-1"))
        _ = try await client.from("tasks").insert(["id": 999, "v": 999] as Row).execute()
        try await log.waitForLatest { $0.column("id").contains("999") }
        let snapshots = log.values
        #expect(snapshots.contains { !$0.pendingRowIDs.isEmpty })
        for (index, snapshot) in snapshots.enumerated() {
            let touched = (snapshot.result?.rows ?? []).filter { ($0["v"]?.numberValue?.intValue ?? 0) > 0 }
            #expect(
                Set(snapshot.pendingRowIDs) == Set(touched.compactMap { $0["id"]?.numberValue?.text }),
                "snapshot \(index)")
        }
        // The same marks as the queue's own view of the user's writes.
        let pending = try await firstValue(of: client.pendingMutations(table: "tasks")) { _ in true }
        let shown = Set(snapshots.last?.column("id") ?? [])
        #expect(
            Set(snapshots.last?.pendingRowIDs ?? []) == Set(pending.flatMap(\.rowIDs)).intersection(shown))
        reader.cancel()
        await client.close()
    }

    @Test("a replayed write's mark leaves with the row's new state, and an UPDATE moving a row in marks it")
    func marksThroughReplay() async throws {
        let fixture = try await ClientFixture(tables: [
            "tasks": [["id": 1, "done": false], ["id": 2, "done": true]]
        ])
        let client = fixture.client
        let open = client.from("tasks").select().eq("done", value: false)
        let stream = open.snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle && $0.column("id") == ["1"] }
        // Another list holds row 2, so the UPDATE below can move it into the open list.
        _ = try await client.from("tasks").select().fetch()
        await client.disableNetwork()
        _ = try await client.from("tasks").update(["done": false]).eq("id", value: 2).execute()
        let moved = try await firstValue(of: stream) { $0.column("id") == ["1", "2"] }
        #expect(moved.pendingRowIDs == ["2"])
        await client.enableNetwork()
        let synced = try await fixture.clock.driving {
            try await firstValue(of: stream) {
                $0.refresh == .idle && !$0.isFromCache && $0.pendingRowIDs.isEmpty
            }
        }
        #expect(synced.column("id") == ["1", "2"])
        await client.close()
    }

    @Test("marks share storage while they only grow, and compare as sets")
    func sharedMarks() {
        let first = PendingRowIDs(marks: [.init(key: "a", id: "a")])
        let grown = first.adding([.init(key: "b", id: "b")])
        #expect(grown.contains("b") && !first.contains("b") && first.count == 1)
        #expect(grown == ["b", "a"] && grown != first)
        #expect(Set([grown, PendingRowIDs(["a", "b"])]).count == 1)
        // A value that is not the storage's newest grows into storage of its own.
        let other = first.adding([.init(key: "c", id: "c")])
        #expect(other == ["a", "c"] && grown == ["a", "b"])
        let id = UUID()
        #expect(PendingRowIDs([id.uuidString.lowercased()]).contains(id))
        #expect(PendingRowIDs([id.uuidString.lowercased()]).contains(id.uuidString))
        let composite = PendingRowIDs(marks: [.init(key: "1\u{0}x", id: "1,x")])
        #expect(composite.contains("1,x") && composite.contains(RowKey(values: ["1", "x"])))
    }
}
