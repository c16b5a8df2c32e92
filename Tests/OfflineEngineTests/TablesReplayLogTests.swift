import Testing

@testable import OfflineEngine

@Suite("A table's replay log in memory", .timeLimit(.minutes(10)))
struct TablesReplayLogTests {
    private static func entry(tick: Int) -> ReplayEntry {
        ReplayEntry(
            tick: tick,
            mutation: Mutation(table: "tasks", operation: .insert, rows: [["id": .number(JSONNumber(tick))]]))
    }

    @Test("entries join in tick order, and beyond 1,000 the oldest leave")
    func appendsAndCaps() {
        var tables = Tables()
        for tick in 1...1_005 { tables.addReplayed(Self.entry(tick: tick)) }
        let replayed = tables[TableID(schema: nil, table: "tasks")]?.replayed ?? []
        #expect(replayed.count == ReplayLog.capPerTable)
        #expect(replayed.first?.tick == 6 && replayed.last?.tick == 1_005)
    }

    @Test("an entry with an older tick than the newest is put in its place")
    func olderTickIsSorted() {
        var tables = Tables()
        for tick in [1, 3, 5] { tables.addReplayed(Self.entry(tick: tick)) }
        tables.addReplayed(Self.entry(tick: 4))
        #expect(tables[TableID(schema: nil, table: "tasks")]?.replayed.map(\.tick) == [1, 3, 4, 5])
    }
}
