import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Query rows", .timeLimit(.minutes(10)))
struct QueryRowsTests {
    private static func rows(_ ids: ClosedRange<Int>) -> [Row] {
        ids.map { ["id": .number(JSONNumber($0))] as Row }
    }

    @Test("rows appended to the newest value share its storage; the values before keep their rows")
    func appendingSharesStorage() {
        let first = QueryRows(Self.rows(1...3), reservingCapacity: 10)
        let second = first.appending(Self.rows(4...5))
        let third = second.appending(Self.rows(6...6))
        #expect(Array(first) == Self.rows(1...3))
        #expect(Array(second) == Self.rows(1...5))
        #expect(Array(third) == Self.rows(1...6))
        #expect(third == QueryRows(Self.rows(1...6)))
    }

    @Test("appending to an older value, or past the room reserved, makes storage of its own")
    func appendingToAnOlderValueBranches() {
        let base = QueryRows(Self.rows(1...2), reservingCapacity: 4)
        let newer = base.appending(Self.rows(3...3))
        let branch = base.appending(Self.rows(9...9))
        let past = newer.appending(Self.rows(4...8))
        #expect(Array(newer) == Self.rows(1...3))
        #expect(Array(branch) == Self.rows(1...2) + Self.rows(9...9))
        #expect(Array(past) == Self.rows(1...8))
        #expect(Array(QueryRows(Self.rows(1...2)).appending(Self.rows(3...3))) == Self.rows(1...3))
    }

    @Test("equality and hashing are the rows', however they are stored")
    func equalityIsTheRows() {
        let shared = QueryRows(Self.rows(1...2), reservingCapacity: 8).appending(Self.rows(3...4))
        let plain: QueryRows = QueryRows(Self.rows(1...4))
        #expect(shared == plain)
        #expect(shared.hashValue == plain.hashValue)
        #expect(shared != QueryRows(Self.rows(1...3)))
        let literal: QueryRows = [["id": 1], ["id": 2]]
        #expect(literal == QueryRows(Self.rows(1...2)))
        #expect(QueryRows([]).isEmpty)
    }

    @Test("readers of earlier values see their rows while another task appends")
    func readersWhileAppending() async {
        var newest = QueryRows([], reservingCapacity: 4_096)
        var versions: [QueryRows] = []
        for id in 1...64 {
            newest = newest.appending(Self.rows(id...id))
            versions.append(newest)
        }
        let appender = newest
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var rows = appender
                for id in 65...3_000 { rows = rows.appending(Self.rows(id...id)) }
                return rows.count == 3_000
            }
            for version in versions {
                group.addTask {
                    (0..<50).allSatisfy { _ in Array(version) == Self.rows(1...version.count) }
                }
            }
            for await held in group { #expect(held) }
        }
    }

    @Test("gathered slots equal the rows, whatever joins, leaves or changes between gatherings")
    func gatheringMatchesTheRows() {
        var random = SeededRandom(seed: 2_026_120_1)
        for sequence in 0..<500 {
            var slots = OverlaySlots(Self.rows(1...Int.random(in: 1...5, using: &random)))
            var next = 100
            for _ in 0..<30 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    slots.append(["id": .number(JSONNumber(next))])
                    next += 1
                case 5..<7:
                    slots[Int.random(in: slots.indices, using: &random)] = nil
                case 7..<9:
                    let slot = Int.random(in: slots.indices, using: &random)
                    if slots[slot] != nil {
                        slots[slot] = ["id": .number(JSONNumber(next)), "patched": true]
                    }
                    next += 1
                default:
                    break
                }
                if random.chance(50) { #expect(Array(slots.gather()) == slots.rows, "sequence \(sequence)") }
            }
            #expect(Array(slots.gather()) == slots.rows, "sequence \(sequence)")
        }
    }
}
