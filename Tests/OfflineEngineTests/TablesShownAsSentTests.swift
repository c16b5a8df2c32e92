import Testing

@testable import OfflineEngine

/// A write sent at once shows among its table's writes while its request waits; only such a
/// write is looked for when one stops showing as sent, so queueing a write offline never
/// searches (or copies) the table's queued writes: the cost of a queued write stays flat in the
/// queue's length.
@Suite("Writes shown as sent at once", .timeLimit(.minutes(10)))
struct TablesShownAsSentTests {
    private static let table = TableID(schema: nil, table: "tasks")

    private static func write(_ id: Int) -> Mutation {
        Mutation(table: "tasks", operation: .insert, rows: [["id": .number(JSONNumber(id))]])
    }

    @Test("a write shown as sent leaves when it stops showing; one never shown changes nothing")
    func onlyShownWritesLeave() {
        var tables = Tables()
        let queued = (1...3).map(Self.write)
        for write in queued { tables.append(write) }
        let sent = Self.write(4)
        tables.showAsSent(sent)
        #expect(tables.shownAsSent == [sent.id])
        #expect(tables[Self.table]?.queued.count == 4)

        // A queued write that was never sent at once: nothing is looked for.
        tables.endShowingAsSent(queued[1], owner: nil)
        #expect(tables[Self.table]?.queued.count == 4)

        tables.endShowingAsSent(sent, owner: nil)
        #expect(tables.shownAsSent.isEmpty)
        #expect(tables[Self.table]?.queued.writes.map(\.id) == queued.map(\.id))

        // Ending twice (the patch took its place, then the send ended) is one end.
        tables.endShowingAsSent(sent, owner: nil)
        #expect(tables[Self.table]?.queued.count == 3)
    }
}
