import Testing

@testable import OfflineEngine

/// The log of changes from the feed that an answer in flight may have laid over it.
@Suite("Feed log", .timeLimit(.minutes(10)))
struct FeedLogTests {
    let table = TableID(schema: nil, table: "tasks")

    func change(_ id: Int) -> RowChange {
        .insert(["id": .number(JSONNumber(id))], into: "tasks")
    }

    @Test("an answer is covered only by the changes up to the table's mark, all of them logged")
    func coveredThroughTheMark() {
        var log = FeedLog()
        log.record(change(1), tick: 5, of: table)
        log.record(change(2), tick: 7, of: table)
        #expect(log.changes(of: table, after: 4, through: 7)?.count == 2)
        #expect(log.changes(of: table, after: 5, through: 7)?.count == 1)
        #expect(log.changes(of: table, after: 7, through: 7)?.isEmpty == true)
        // The mark moved to 9 for a change still being laid: the answer cannot be covered yet.
        #expect(log.changes(of: table, after: 4, through: 9) == nil)
    }

    @Test("changes no longer kept leave an older answer uncovered")
    func floor() {
        var log = FeedLog()
        for tick in 1...Int64(FeedLog.limit + 1) { log.record(change(Int(tick)), tick: tick, of: table) }
        #expect(log.changes(of: table, after: 0, through: Int64(FeedLog.limit + 1)) == nil)
        #expect(log.changes(of: table, after: 1, through: Int64(FeedLog.limit + 1))?.count == FeedLog.limit)
    }
}
