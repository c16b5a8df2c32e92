import Foundation
import Testing

@testable import OfflineEngine

/// `LiveQueryModel` on a client: a burst of writes, and leaving `run()`.
@Suite("The live query model on a client", .timeLimit(.minutes(10)))
@MainActor
struct LiveQueryModelClientTests {
    @Test("1,000 writes queued in a burst notify a handful of times and end on the last value")
    func burst() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 0, "title": "first"]]])
        let model = LiveQueryModel(fixture.client.from("tasks").select())
        let count = ObservationCounter { model.rows.count }
        let marks = ObservationCounter { model.pendingRowIDs.count }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            _ = try await ObservationCounter { model.refresh }.value { $0 == .idle }
            #expect(model.rows.count == 1)
            await fixture.client.disableNetwork()
            let (rowChanges, markChanges) = (count.changes, marks.changes)
            let client = fixture.client
            try await burstWhileMainActorHeld(1_000) { id in
                let row: Row = ["id": .number(JSONNumber(id)), "title": "queued"]
                _ = try await client.from("tasks").insert(row).execute()
            }
            _ = try await count.value { $0 == 1_001 }
            _ = try await marks.value { $0 == 1_000 }
            #expect(count.changes - rowChanges <= 8)
            #expect(marks.changes - markChanges <= 8)
            #expect(model.snapshot?.result?.rows.count == 1_001)
            await fixture.client.close()
        }
    }

    @Test("cancelling run() ends the live read: its refresh stops and the registry holds no reader")
    func cancellingRun() async throws {
        let (fixture, query) = try await ClientFixture.failingTaskRead()
        let key = query.query.canonicalKey
        let model = LiveQueryModel(query)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            // The refresh failed and waits on its retry schedule.
            try await fixture.sleepers(atLeast: 1)
            #expect(fixture.client.liveReaders(of: key) == 1)
            group.cancelAll()
        }
        #expect(fixture.client.liveReaders(of: key) == 0)
        #expect(!fixture.client.engine.liveReads.keys.contains(key))
        try await eventually { fixture.clock.sleeperCount == 0 }
        let requests = fixture.probe.requests.count
        fixture.clock.advance(by: .seconds(120))
        fixture.probe.answer(with: nil)
        _ = try await fixture.client.from("tasks").select().fetch()
        #expect(fixture.probe.requests.count == requests + 1, "the refresh asked again after run() ended")
        #expect(model.error == nil)
        await fixture.client.close()
    }

    @Test("a closed client's read ends run() with the error kept")
    func closedClient() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.close()
        let model = LiveQueryModel(fixture.client.from("tasks").select(), as: [String: Int].self)
        await model.run()
        #expect(model.error as? ClientError == .closed)
    }
}
