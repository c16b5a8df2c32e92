import Foundation
import Testing

@testable import OfflineEngine

/// The live read's pipeline is a chain of pure stages: the hint that decides which facts wake the
/// read reads the facts alone, and the pairing stage holds the facts that bring the read's own
/// answer, so that answer is composed once, with its report.
@Suite("The live read's stages", .timeLimit(.minutes(10)))
struct LivePipelineStageTests {
    private typealias F = OverlayFixture

    private static let list = F.list(filters: [F.eq("group", "0")], rows: [["id": 1, "group": 0]])
    private static var key: String { list.query.canonicalKey }

    /// The facts of the tasks table: the list (answered by `answer`) with `queued` writes of
    /// alice, `appendedSince` the writes before the last.
    private static func facts(
        answer: AnswerStamp? = nil, queued: [Mutation] = [], version: Int = 1, answers: Int = 0
    ) -> TableFacts {
        var facts = TableFacts(table: TableID(list.query), owner: "alice")
        facts.lists[key] = ListEntry(
            list: list, fetchedAt: Date(timeIntervalSince1970: 1), isStale: false, answer: answer)
        var log = WriteLog()
        for write in queued.dropLast() { log = log.appending(write) }
        facts.appendedSince = queued.isEmpty ? nil : log
        facts.queued = queued.last.map(log.appending) ?? log
        facts.version = version
        facts.answers = answers
        return facts
    }

    private static func insert(id: Int, group: Int) -> Mutation {
        F.write(.insert, rows: [["id": .number(JSONNumber(id)), "group": .number(JSONNumber(group))]])
    }

    @Test("the facts that bring the read's own answer are held until its report: one composition per answer")
    func answerHeldUntilItsReport() {
        var pairing = AnswerPairing(key: Self.key, startAnswers: 0, refreshID: Self.key)
        guard case .ready = pairing.pair(Self.facts(), .starting) else {
            Issue.record("the cached list is not passed on")
            return
        }
        let answered = Self.facts(answer: AnswerStamp(serial: 1, refreshOf: Self.key), version: 2, answers: 1)
        guard case .holding(let report) = pairing.pair(answered, .starting) else {
            Issue.record("the answer is composed before its report")
            return
        }
        #expect(report.state == .refreshing)
        guard case .ready(_, let paired) = pairing.pair(answered, RefreshReport(state: .idle, answer: 1))
        else {
            Issue.record("the answer is not passed on with its report")
            return
        }
        #expect(paired == RefreshReport(state: .idle, answer: 1))
    }

    @Test("with nothing shown yet, the read's own answer passes at once; it is not held again")
    func firstAnswerPassesAtOnce() {
        var pairing = AnswerPairing(key: Self.key, startAnswers: 0, refreshID: Self.key)
        let answered = Self.facts(answer: AnswerStamp(serial: 1, refreshOf: Self.key), version: 2, answers: 1)
        guard case .ready = pairing.pair(answered, .starting) else {
            Issue.record("the first answer waits though nothing is shown")
            return
        }
        let more = Self.facts(
            answer: AnswerStamp(serial: 1, refreshOf: Self.key), queued: [Self.insert(id: 2, group: 0)],
            version: 2, answers: 1)
        guard case .ready = pairing.pair(more, .starting) else {
            Issue.record("a write queued over the answer shown waits for its report")
            return
        }
    }

    @Test("the hint reads the facts alone: a refused insert wakes the read only when its key may be shown")
    func hintFromFactsAlone() {
        let hint = ReachHint(query: Self.list.query, primaryKeys: PrimaryKeys())
        // Refused by the read's filter, with a key no row of the read has: it cannot reach it.
        #expect(!hint.mayChange(Self.facts(queued: [Self.insert(id: 7, group: 1)])))
        // Admitted by the filter: it joins.
        #expect(hint.mayChange(Self.facts(queued: [Self.insert(id: 8, group: 0)])))
        // Refused, with the key of the cached list's row: it merges into that row and moves it out.
        #expect(hint.mayChange(Self.facts(queued: [Self.insert(id: 1, group: 1)])))
        // Refused, with the key of a row an earlier queued write made: it merges into that row.
        let earlier = [Self.insert(id: 9, group: 0), Self.insert(id: 9, group: 1)]
        #expect(hint.mayChange(Self.facts(queued: earlier)))
        // A queued UPDATE may have moved any row in: every insert wakes the read.
        let update = F.write(.update, rows: [["group": 0]], filters: [F.eq("id", "5")])
        #expect(hint.mayChange(Self.facts(queued: [update, Self.insert(id: 10, group: 1)])))
    }
}
