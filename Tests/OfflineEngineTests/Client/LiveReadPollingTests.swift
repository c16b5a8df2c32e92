import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// Lists that follow the server without a change feed: a live read fetched again every interval
/// while read (off by default), and every live read fetched again when the app returns.
@Suite("Live reads fetched again on a timer and on return to the foreground", .timeLimit(.minutes(10)))
struct LiveReadPollingTests {
    private static let milk: Row = ["id": 1, "title": "milk"]
    private static let bread: Row = ["id": 2, "title": "bread"]

    /// A client whose server holds `milk` in `tasks`, and a read of all of `tasks`.
    private static func milkRead() async throws -> (fixture: ClientFixture, read: ReadQuery) {
        let fixture = try await ClientFixture(tables: ["tasks": [milk]])
        return (fixture, fixture.client.from("tasks").select())
    }

    private static func fetched(_ snapshot: QuerySnapshot) -> Bool {
        snapshot.refresh == .idle && !snapshot.isFromCache
    }

    @Test("a read asking to be fetched every 30 s shows a row another device added after the tick")
    func polls() async throws {
        let (fixture, tasks) = try await Self.milkRead()
        let read = tasks.order("id")
        let polling = collect(read.snapshots(refreshingEvery: .seconds(30)), into: AsyncLog<QuerySnapshot>())
        _ = try await firstValue(of: read.snapshots(), where: Self.fetched)
        await fixture.server.setRows([Self.milk, Self.bread], of: "tasks")
        try await fixture.sleepers(atLeast: 1)
        fixture.clock.advance(by: .seconds(30))
        let after = try await firstValue(of: read.snapshots()) { $0.result?.rows.count == 2 }
        #expect(after.result?.rows.map { $0["title"] } == ["milk", "bread"])
        #expect(fixture.gets.count == 2)
        polling.cancel()
        await fixture.client.close()
    }

    @Test("a plain live read sets no timer at idle: polling is off by default; asked for, one tick waits")
    func offByDefault() async throws {
        let (fixture, read) = try await Self.milkRead()
        let plain = collect(read.snapshots(), into: AsyncLog<QuerySnapshot>())
        _ = try await firstValue(of: read.snapshots(), where: Self.fetched)
        #expect(fixture.clock.sleeperCount == 0)
        let polling = collect(read.snapshots(refreshingEvery: .seconds(30)), into: AsyncLog<QuerySnapshot>())
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.gets.count == 1)
        plain.cancel()
        polling.cancel()
        await fixture.client.close()
    }

    @Test("when its reader stops, the read's ticks stop: no sleeper is left on the clock")
    func ticksEndWithTheReader() async throws {
        let (fixture, read) = try await Self.milkRead()
        _ = try await firstValue(of: read.snapshots(refreshingEvery: .seconds(5)), where: Self.fetched)
        try await eventually { fixture.clock.sleeperCount == 0 }
        fixture.clock.advance(by: .seconds(60))
        #expect(fixture.gets.count == 1)
        await fixture.client.close()
    }

    @Test("refreshLiveReads() fetches every live read again: the app returned to the foreground")
    func foreground() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [Self.milk], "notes": []])
        let tasks = fixture.client.from("tasks").select()
        let notes = fixture.client.from("notes").select()
        let readers = [tasks, notes].map { collect($0.snapshots(), into: AsyncLog<QuerySnapshot>()) }
        _ = try await firstValue(of: tasks.snapshots(), where: Self.fetched)
        _ = try await firstValue(of: notes.snapshots(), where: Self.fetched)
        await fixture.server.setRows([Self.milk, Self.bread], of: "tasks")
        try await fixture.client.refreshLiveReads()
        _ = try await firstValue(of: tasks.snapshots()) { $0.result?.rows.count == 2 }
        try await eventually { fixture.gets.count == 4 }
        for reader in readers { reader.cancel() }
        await fixture.client.close()
    }

    @Test(
        "refreshLiveReads() while a fetch is in flight: the read fetches again after that answer, so it rests only on rows asked for after the call"
    )
    func refreshDuringAFetch() async throws {
        let (fixture, tasks) = try await Self.milkRead()
        let read = tasks.order("id")
        let reader = collect(read.snapshots(), into: AsyncLog<QuerySnapshot>())
        _ = try await firstValue(of: read.snapshots(), where: Self.fetched)
        // The next GET is answered with the rows of when it arrived, held until the app has
        // asked again; the server's rows change meanwhile.
        let gate = Gate()
        let held = Mutex(false)
        fixture.probe.answer { request in
            guard request.method == .get, !held.withLock({ $0 }) else { return nil }
            held.withLock { $0 = true }
            await gate.wait()
            return jsonResponse([Self.milk])
        }
        try await fixture.client.refreshLiveReads()
        _ = try await fixture.probe.gets(atLeast: 2)
        await fixture.server.setRows([Self.milk, Self.bread], of: "tasks")
        try await fixture.client.refreshLiveReads()
        gate.open()
        let rested = try await firstValue(of: read.snapshots()) {
            $0.refresh == .idle && $0.result?.rows.count == 2
        }
        #expect(rested.result?.rows.map { $0["title"] } == ["milk", "bread"])
        #expect(fixture.gets.count == 3)
        reader.cancel()
        await fixture.client.close()
    }
}
