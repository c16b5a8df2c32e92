import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A live read whose readers all left while its fetch was under way, and one reader that
/// joined before: one screen closing as the next one showing the same list opens. Readers are
/// counted once, by the shared snapshots: a reader that joined and has not read yet keeps the
/// read (and its refresh) running; once none is left, the next reader starts the read anew, on
/// what the cache holds then.
@Suite("Live reads joined again after their readers left", .timeLimit(.minutes(10)))
struct LiveReadRejoinTests {
    /// A client with one cached task, and a live read of the tasks whose first fetch the server
    /// holds (the gate) while one reader reads it.
    private static func readWithItsFetchHeld() async throws -> (ClientFixture, Gate, ReadQuery, LiveList) {
        let fixture = try await ClientFixture(
            tables: ["tasks": [["id": 1, "title": "one"]]], primaryKeys: ["tasks": ["id"]])
        let gate = fixture.probe.holdReads()
        let read = fixture.client.from("tasks").select()
        let first = LiveList(read)
        _ = try await gate.arrivals.values(atLeast: 1)
        return (fixture, gate, read, first)
    }

    @Test("a reader that joined but has not read yet keeps the read and its fetch: it shows the answer")
    func joinedReaderKeepsTheRead() async throws {
        let (fixture, gate, read, first) = try await Self.readWithItsFetchHeld()
        // The screen that opens next has joined the read but not started reading it.
        let joined = try await fixture.client.engine.attach(read.query)
        first.stop()
        try await eventually { fixture.client.liveReaders(of: read.query.canonicalKey) == 1 }
        gate.open()
        let shown = try await withTimeout(30) {
            var next = joined
            while let snapshot = await next.next() {
                if snapshot.refresh == .idle && snapshot.result != nil { return snapshot }
            }
            throw TimedOut(seconds: 30)
        }
        #expect(shown.column("id") == ["1"])
        #expect(!shown.isFromCache, "the rows are the server's answer to this read")
        #expect(gate.arrivals.values.count == 1, "the fetch under way was kept, not made again")
    }

    @Test("a reader joining after the last one left during a fetch shows the rows that fetch wrote")
    func rejoinShowsTheAnswerWrittenAfterTheReadersLeft() async throws {
        let (fixture, gate, read, first) = try await Self.readWithItsFetchHeld()
        // The last reading screen closes: the read ends, cancelling the refresh, whose request is
        // answered anyway and written (the server did not see the cancellation).
        first.stop()
        try await eventually { fixture.client.liveReaders(of: read.query.canonicalKey) == 0 }
        gate.open()
        try await eventually {
            await fixture.client.engine.state.currentFacts(of: TableID(read.query)).answers == 1
        }
        // Offline, the next screen reads: a new read, on the rows that answer cached.
        try await fixture.client.insertOffline(["id": 2, "title": "two"])
        let next = LiveList(read)
        defer { next.stop() }
        let shown = try await next.first { $0.refresh == .paused && $0.result != nil }
        #expect(shown.column("id").sorted() == ["1", "2"], "\(next.log.values.map { $0.column("id") })")
        #expect(shown.isFromCache, "this read has no answer of its own yet")
    }
}
