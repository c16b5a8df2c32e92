import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A live read whose readers all left while its fetch was under way, joined again: one screen
/// closing as the next one showing the same list opens. The answer that fetch wrote belongs to
/// the read's refresh, so the next run of that refresh must report it; a new reader that waited
/// for a report never sent showed the queued writes alone, without the rows cached for the user.
@Suite("Live reads joined again after their readers left")
struct LiveReadRejoinTests {
    @Test("a reader joining after the last one left during a fetch shows the rows that fetch wrote")
    func rejoinShowsTheAnswerWrittenAfterTheReadersLeft() async throws {
        let fixture = try await ClientFixture(
            tables: ["tasks": [["id": 1, "title": "one"]]], primaryKeys: ["tasks": ["id"]])
        let gate = fixture.probe.holdReads()
        let read = fixture.client.from("tasks").select()
        let key = read.query.canonicalKey
        let first = LiveList(read)
        _ = try await gate.arrivals.values(atLeast: 1)
        // The screen that opens next has joined the read but not started reading it (the moment
        // between its join and its first `next()`): the read is kept, its iteration is not.
        _ = try await fixture.client.engine.attach(read.query)
        defer { fixture.client.engine.detach(key) }
        // The last reading screen closes: the iteration stops, cancelling the refresh, whose
        // request is answered anyway and written (the server did not see the cancellation).
        first.stop()
        gate.open()
        try await eventually {
            await fixture.client.engine.state.currentFacts(of: TableID(read.query)).answers == 1
        }
        // Offline, the next screen reads: the next run of the refresh pauses at once.
        try await fixture.client.insertOffline(["id": 2, "title": "two"])
        let next = LiveList(read)
        defer { next.stop() }
        let shown = try await next.first { $0.refresh == .paused && $0.result != nil }
        #expect(shown.column("id").sorted() == ["1", "2"], "\(next.log.values.map { $0.column("id") })")
        #expect(!shown.isFromCache, "the rows are the server's answer to this read")
    }
}
