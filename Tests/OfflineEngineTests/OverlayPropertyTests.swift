import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Overlay: model-based property", .timeLimit(.minutes(10)))
struct OverlayPropertyTests {
    typealias F = OverlayFixture

    static let upperID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    static let ids = ["k0", "k1", "k2", "k3", "k4", upperID.lowercased()]

    private static func id(_ random: inout SeededRandom) -> JSONValue {
        let id = random.pick(ids)
        return .string(id == upperID.lowercased() && random.chance(50) ? upperID : id)
    }

    private static func row(_ random: inout SeededRandom, id: JSONValue?, full: Bool) -> Row {
        var row = Row([:])
        if let id { row["id"] = id }
        if full || random.chance(60) { row["done"] = .bool(random.chance(50)) }
        if full || random.chance(50) {
            row["title"] = random.chance(10) ? .null : .string(random.pick(["a", "b"]))
        }
        if full || random.chance(30) { row["p"] = .number(JSONNumber(Int.random(in: 1...3, using: &random))) }
        return row
    }

    private static func filters(_ random: inout SeededRandom, forList: Bool) -> [Filter] {
        var choices: [[Filter]] = [
            [], [F.eq("done", "true")], [F.eq("done", "false")], [F.eq("title", "a")],
            [.condition(FilterCondition(column: "title", op: .neq, operand: .value("b")))],
            [F.condition("p", .lt, "2")], [F.condition("title", .is, "null")],
            [.or([F.eq("done", "true"), F.eq("title", "a")], negated: false)],
        ]
        if !forList {
            choices += [
                [F.eq("id", random.pick(ids))], [F.eq("id", upperID)],
                [F.inList("id", [random.pick(ids), random.pick(ids)])],
                [F.eq("id", random.pick(ids)), F.eq("done", "false")],
            ]
        }
        return random.pick(choices)
    }

    private static func list(_ random: inout SeededRandom) -> CachedList {
        let named = random.chance(25)
        var rows = [Row]()
        for id in ids.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)) {
            var row = Self.row(&random, id: .string(id), full: true)
            if !named && random.chance(15) { row["title"] = nil }
            rows.append(row)
        }
        return F.list(
            select: named ? random.pick(["id,done,title,p", "p,title,done,id"]) : "*",
            filters: filters(&random, forList: true), rows: rows,
            fetchTick: Int.random(in: 0...6, using: &random))
    }

    private static func write(_ random: inout SeededRandom) -> Mutation {
        let owner = random.pick(["alice", "bob", nil] as [String?])
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let rows = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                Self.row(&random, id: random.chance(90) ? id(&random) : nil, full: random.chance(50))
            }
            return F.write(.insert, rows: rows, owner: owner)
        case 1:
            let rows = [Self.row(&random, id: random.chance(90) ? id(&random) : nil, full: random.chance(50))]
            return F.write(
                .upsert, rows: rows, owner: owner, onConflict: random.chance(20) ? ["title"] : nil,
                ignoreDuplicates: random.chance(20))
        case 2:
            var patch = Self.row(&random, id: nil, full: false)
            if patch.values.isEmpty { patch["done"] = .bool(random.chance(50)) }
            return F.write(.update, rows: [patch], filters: filters(&random, forList: false), owner: owner)
        default:
            return F.write(.delete, filters: filters(&random, forList: false), owner: owner)
        }
    }

    @Test("a fold extended by queued writes lays the same rows as laying every write at once")
    func foldExtendsLikeAFullLay() {
        let overlay = TestOverlay()
        var random = SeededRandom(seed: 20_261_129)
        for sequence in 0..<2_000 {
            let lists = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.list(&random) }
            let others = Array(lists.dropFirst())
            let replayed = (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.write(&random) }
            let queued = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.write(&random) }
            let split = Int.random(in: 0...queued.count, using: &random)
            var fold = OverlayFold<TestEvaluator>(
                list: lists[0], otherLists: others, primaryKeys: PrimaryKeys(), replayed: replayed,
                queued: Array(queued[..<split]))
            if fold.extend(with: Array(queued[split...])) == nil {
                // A fold made without an UPDATE refuses one: it is made again from every write.
                #expect(!fold.laysUpdates && queued[split...].contains { $0.operation == .update })
                fold = OverlayFold<TestEvaluator>(
                    list: lists[0], otherLists: others, primaryKeys: PrimaryKeys(), replayed: replayed,
                    queued: queued)
            }
            let expected = overlay.apply(
                replayed.map { OverlayWrite($0, isQueued: false) }
                    + queued.map { OverlayWrite($0, isQueued: true) },
                to: lists[0], otherLists: others)
            #expect(fold.result == expected, "sequence \(sequence)")
        }
    }

    @Test("a queue that lost a write a fold laid is not an extension of it; one with writes appended is")
    func foldRefusesAShorterQueue() {
        var random = SeededRandom(seed: 7)
        let queued = (0..<3).map { _ in Self.write(&random) }
        let laid = WriteLog(queued)
        let appended = laid.appending(Self.write(&random))
        #expect(appended.extends(laid))
        #expect(appended.writes(after: laid).map(\.id) == [appended.writes[3].id])
        #expect(!laid.removing(queued[0].id).extends(laid))
        #expect(!laid.removing(queued[1].id).extends(laid))
        #expect(laid.extends(laid))
        // An older version keeps its own writes after the newer one grew in place.
        #expect(laid.writes.map(\.id) == queued.map(\.id))
    }

    @Test("the overlay agrees with a plain replay of the rules on 2,000 random write sequences")
    func agreesWithModel() {
        let model = OverlayModel()
        let overlay = TestOverlay()
        let seed = ProcessInfo.processInfo.environment["OVERLAY_SEED"].flatMap { UInt64($0) } ?? 20_240_601
        var random = SeededRandom(seed: seed)
        var compared = 0
        for sequence in 0..<2_000 {
            var lists = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.list(&random) }
            var queue = [Mutation]()
            var log = [ReplayEntry]()
            var tick = 6
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let write = Self.write(&random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    queue.append(write)
                case 1:
                    tick += 1
                    log.append(ReplayEntry(tick: tick, mutation: write))
                default:
                    let returned =
                        write.operation == .insert || write.operation == .upsert ? random.chance(30) : false
                    let keysOnce = Set(write.rows.compactMap(model.key)).count == write.rows.count
                    var sent = write
                    if returned && keysOnce { sent.returning = "*" }
                    let returnedRows =
                        sent.returning == nil ? nil : sent.rows.map { $0.merging(["server": 1]) }
                    let waiting = [Self.list(&random).query]
                    let expected = model.patch(
                        sent, returned: returnedRows != nil, lists: lists, uncached: waiting)
                    let actual = overlay.patch(
                        sent, returned: returnedRows, into: lists, uncachedReads: waiting)
                    #expect(actual == expected, "sequence \(sequence): online \(write.operation)")
                    if actual != expected && ProcessInfo.processInfo.environment["OVERLAY_DEBUG"] != nil {
                        print(
                            "WRITE", write.operation, write.filters, write.onConflict as Any,
                            write.rows.map { JSONText.string($0.json) })
                        for list in lists {
                            print(
                                "LIST", list.query.select, list.query.filters, list.fetchTick,
                                list.rows.map { JSONText.string($0.json) })
                        }
                        print("ACTUAL", actual)
                        print("EXPECTED", expected)
                    }
                    for (index, patch) in actual.lists.enumerated() {
                        if case .rows(let rows) = patch { lists[index].rows = rows }
                    }
                }
            }
            for (index, list) in lists.enumerated() {
                var others = lists
                others.remove(at: index)
                let unseen = log.sorted { $0.tick < $1.tick }.filter { $0.tick > list.fetchTick }
                let writes =
                    unseen.map { OverlayWrite($0.mutation, isQueued: false) }
                    + queue.filter { $0.ownerID != "bob" }.map { OverlayWrite($0, isQueued: true) }
                let expected = model.show(list, others: others, writes: writes)
                let actual = overlay.read(
                    list, otherLists: others, queue: queue, replayLog: log, ownerID: "alice")
                #expect(actual == expected, "sequence \(sequence), list \(index)")
                if actual != expected && ProcessInfo.processInfo.environment["OVERLAY_DEBUG"] != nil {
                    for write in writes {
                        print(
                            "WRITE", write.isQueued, write.mutation.operation, write.mutation.filters,
                            write.mutation.onConflict as Any,
                            write.mutation.rows.map { JSONText.string($0.json) })
                    }
                    for other in [list] + others {
                        print(
                            "LIST", other.query.select, other.query.filters, other.fetchTick,
                            other.rows.map { JSONText.string($0.json) })
                    }
                }
                compared += 1
            }
            let fetchTicks = lists.map(\.fetchTick)
            let kept = ReplayLog.remaining(log, listFetchTicks: fetchTicks).map(\.tick)
            #expect(kept == log.map(\.tick).filter { $0 > (fetchTicks.min() ?? .max) })
        }
        #expect(compared >= 2_000)
    }
}
