import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("An answer and the refresh state it ends in", .timeLimit(.minutes(10)))
struct LiveReadAnswerTests {
    @Test("a fetch that succeeds yields one snapshot with the new rows and .idle")
    func answerAndStateTogether() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let gate = fixture.probe.holdReads()
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        // The reader holds the first snapshot and waits for the next while the server answers.
        _ = try await log.values(atLeast: 1)
        _ = try await gate.arrivals.values(atLeast: 1)
        gate.open()
        let seen = try await withTimeout(30) {
            while true {
                let values = try await log.values(atLeast: log.values.count + 1)
                if values.last?.refresh == .idle { return values }
            }
        }
        let withServerRows = seen.filter { $0.column("id") == ["1"] }
        #expect(withServerRows.map(\.refresh) == [.idle])
        #expect(seen.map(\.refresh) == [.refreshing, .idle])
        reader.cancel()
        await fixture.client.close()
    }
}
