import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A live read is not woken for an INSERT that cannot reach it (see `ReachHint`); these tests
/// show that every INSERT that does reach it still shows, checked against a one-shot read of
/// the same query, which lays the whole queue anew.
@Suite("Live reads skip only the inserts that cannot reach them", .timeLimit(.minutes(10)))
struct LiveReadWakeTests {
    @Test("an insert the read's filters refuse still reaches it when the read holds a row with its key")
    func refusedInsertWithAKeyTheReadHolds() async throws {
        let fixture = try await ClientFixture(tables: [
            "tasks": [["id": 1, "group": 0, "title": "a"], ["id": 2, "group": 1, "title": "b"]]
        ])
        let groupOne = fixture.client.from("tasks").select().eq("group", value: 1)
        // One reader for the whole test, so the live read (and its fold) stays the same.
        let watching = collect(groupOne.snapshots(), into: AsyncLog<QuerySnapshot>())
        _ = try await firstValue(of: groupOne.snapshots()) { $0.refresh == .idle && $0.result != nil }
        await fixture.client.disableNetwork()
        let before = try await groupOne.fetch().rows
        _ = try await fixture.client.from("tasks").insert(["id": 2, "group": 0, "title": "moved"] as Row)
            .execute()
        let expected = try await groupOne.fetch().rows
        #expect(expected != before, "the insert must change what the read shows, or the test shows nothing")
        _ = try await firstValue(of: groupOne.snapshots(), within: 30) { $0.result?.rows == expected }
        watching.cancel()
        await watching.value
        await fixture.client.close()
    }

    @Test("a random run of inserts to several filtered reads: every live read ends where a one-shot read is")
    func randomInsertsMatchOneShotReads() async throws {
        var random = SeededRandom(seed: 11)
        let rows: [Row] = (1...12).map {
            ["id": .number(JSONNumber($0)), "group": .number(JSONNumber($0 % 3))]
        }
        let fixture = try await ClientFixture(tables: ["tasks": rows])
        let reads =
            (0..<3).map { fixture.client.from("tasks").select().eq("group", value: $0) }
            + [
                fixture.client.from("tasks").select(),
                fixture.client.from("tasks").select().gt("id", value: 6),
            ]
        let watching = reads.map { collect($0.snapshots(), into: AsyncLog<QuerySnapshot>()) }
        for read in reads {
            _ = try await firstValue(of: read.snapshots()) { $0.refresh == .idle && $0.result != nil }
        }
        await fixture.client.disableNetwork()
        for step in 0..<60 {
            let id = Int.random(in: 1...24, using: &random)
            let group = Int.random(in: 0..<4, using: &random)
            let row: Row = [
                "id": .number(JSONNumber(id)), "group": .number(JSONNumber(group)),
                "title": .string("step \(step)"),
            ]
            _ = try await fixture.client.from("tasks").insert(row).execute()
            for read in reads {
                let expected = try await read.fetch().rows
                _ = try await firstValue(of: read.snapshots(), within: 30) { $0.result?.rows == expected }
            }
        }
        for task in watching { task.cancel() }
        for task in watching { await task.value }
        await fixture.client.close()
    }
}
