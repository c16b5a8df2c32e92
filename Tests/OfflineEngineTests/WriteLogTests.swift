import Foundation
import Testing

@testable import OfflineEngine

/// `WriteLog.removing(_:)` with writes whose append has not committed: the facts leave them out,
/// and the version that holds them once stored still extends what readers laid.
@Suite("A table's write log without its unstored writes")
struct WriteLogTests {
    private static func write(_ id: Int) -> Mutation {
        Mutation(table: "tasks", operation: .insert, rows: [["id": .number(JSONNumber(text: "\(id)")!)]])
    }

    @Test("the newest writes left out: a window the full log extends, with them after it")
    func newestLeftOut() {
        let (a, b, c) = (Self.write(1), Self.write(2), Self.write(3))
        let log = WriteLog().appending(a).appending(b).appending(c)
        let shown = log.removing([b.id, c.id])
        #expect(shown.writes.map(\.id) == [a.id])
        #expect(log.extends(shown))
        #expect(log.writes(after: shown).map(\.id) == [b.id, c.id])
        #expect(log.removing([]).extends(log))
    }

    @Test("an older write left out: a copy without it")
    func olderLeftOut() {
        let (a, b, c) = (Self.write(1), Self.write(2), Self.write(3))
        let log = WriteLog().appending(a).appending(b).appending(c)
        let shown = log.removing([a.id, c.id])
        #expect(shown.writes.map(\.id) == [b.id])
        #expect(!log.extends(shown))
    }
}
