import OfflineEngine
import Testing

/// The follow test's fault injector must do what its report counts, or a clean run would prove
/// nothing about a faulty feed.
@Suite("End to end: the change feed's fault injector", .offCooperativePool, .timeLimit(.minutes(10)))
struct FeedFaultsTests {
    @Test(
        "it drops, repeats, swaps, delays, disconnects with a gap and cuts short; what it held arrives once the server is quiet"
    )
    func injectsEachFault() {
        var faults = FeedFaults(seed: 7, rate: 50)
        let changes = (1...300).map { id in
            RowChange.update(Row.task(id, "task \(id)"), old: ["id": .number(JSONNumber(id))], in: "tasks")
        }
        var events: [ChangeFeedEvent] = []
        for start in stride(from: 0, to: changes.count, by: 3) {
            events += faults.receive(Array(changes[start..<start + 3]))
        }
        events += faults.receive([])
        #expect(faults.receive([]).isEmpty, "nothing is held once the server is quiet")
        #expect(faults.changes == 300)
        #expect(Set(faults.counts.keys) == Set(FeedFaults.Fault.allCases), "every kind of fault met a change")

        let delivered = events.compactMap { event -> RowChange? in
            guard case .change(let change) = event else { return nil }
            return change
        }
        let ids = delivered.compactMap(\.record.taskID)
        #expect(ids.count > Set(ids).count, "some changes came twice")
        #expect(ids != ids.sorted(), "some came out of order")
        #expect(Set(ids).count < changes.count, "some never came")
        #expect(
            delivered.contains { $0.errors == [FeedFaults.payloadTooLarge] && $0.record.columns == ["id"] })
        var down = false
        for event in events {
            switch event {
            case .disconnected:
                #expect(!down)
                down = true
            case .subscribed:
                #expect(down, "subscribed only after a disconnect")
                down = false
            case .change:
                break
            }
        }
        #expect(!down, "the last disconnect ends subscribed")
    }
}
