import Foundation
import Testing

@testable import OfflineEngine

/// A deterministic random source (SplitMix64), so a failing sequence can be replayed by seed.
private struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}

/// The rules of the overlay written the plain way: every write replayed one by one on arrays of
/// rows, every match found by scanning, no index. Shape compatibility (`ReadShape.mayJoin`) is
/// shared with the engine: it has its own tests.
private struct OverlayModel {
    let evaluator = TestEvaluator(keyColumns: ["id"])

    func key(_ row: Row) -> String? {
        guard let value = row["id"] else { return nil }
        switch value {
        case .string(let text): return RowKey.normalised(text: text)
        case .number(let number): return number.text
        default: return nil
        }
    }

    func sameValues(_ left: Row, _ right: Row, _ columns: [String]) -> Bool {
        columns.allSatisfy { column in
            guard let a = left[column], let b = right[column], a != .null, b != .null else { return false }
            if case .string(let x) = a, case .string(let y) = b {
                return RowKey.normalised(text: x) == RowKey.normalised(text: y)
            }
            return a == b
        }
    }

    func admits(_ query: QueryDescription, _ row: Row) -> Truth { evaluator.evaluate(query.filters, on: row) }

    struct Known {
        var row: Row
        var shape: ReadShape?  // nil: written
    }

    /// The overlay of `writes` over `list`: rows, pending, refetch.
    func show(_ list: CachedList, others: [CachedList], writes: [OverlayWrite]) -> OverlayResult {
        let query = list.query
        let shape = ReadShape(query)
        var rows = list.rows
        var outside = [String: Known]()
        for other in others.sorted(by: { $0.fetchTick < $1.fetchTick }) where other.query.table == query.table
        {
            for row in other.rows {
                if let k = key(row), !rows.contains(where: { key($0) == k }) {
                    outside[k] = Known(row: row, shape: ReadShape(other.query))
                }
            }
        }
        var pending = false
        var refetch = false
        for write in writes where write.mutation.table == query.table && write.mutation.schema == query.schema
        {
            var changed = false
            let mutation = write.mutation
            switch mutation.operation {
            case .insert, .upsert:
                let conflict = mutation.operation == .upsert ? mutation.onConflict : nil
                for row in mutation.rows {
                    var match: Int?
                    if let conflict, !conflict.isEmpty, conflict != ["id"] {
                        match = rows.firstIndex { sameValues($0, row, conflict) }
                    }
                    if match == nil, let k = key(row) { match = rows.firstIndex { key($0) == k } }
                    if let match {
                        let merged = rows[match].merging(row)
                        if admits(query, merged) == .false {
                            rows.remove(at: match)
                            if let k = key(merged) { outside[k] = Known(row: merged, shape: shape) }
                            changed = true
                        } else if merged != rows[match] {
                            rows[match] = merged
                            if let k = key(merged) { outside[k] = nil }
                            changed = true
                        }
                        continue
                    }
                    if let k = key(row) {
                        if mutation.operation == .upsert, let known = outside[k] {
                            outside[k] = Known(row: known.row.merging(row), shape: known.shape)
                        } else {
                            outside[k] = Known(row: row, shape: nil)
                        }
                    }
                    if admits(query, row) != .false {
                        rows.append(row)
                        if let k = key(row) { outside[k] = nil }
                        changed = true
                    }
                }
            case .update:
                let patch = mutation.rows.reduce(Row([:])) { $0.merging($1) }
                let outsideBefore = outside
                var next = [Row]()
                for row in rows {
                    guard evaluator.evaluate(mutation.filters, on: row) == .true else {
                        next.append(row)
                        continue
                    }
                    let patched = row.merging(patch)
                    if admits(query, patched) == .false {
                        if let k = key(patched) { outside[k] = Known(row: patched, shape: shape) }
                        changed = true
                        continue
                    }
                    if patched != row { changed = true }
                    next.append(patched)
                }
                rows = next
                for k in outsideBefore.keys.sorted() {
                    guard let known = outside[k], evaluator.evaluate(mutation.filters, on: known.row) == .true
                    else { continue }
                    let patched = known.row.merging(patch)
                    outside[k] = nil
                    if admits(query, known.row) == .false && admits(query, patched) != .false {
                        let fits =
                            known.shape.map { $0.mayJoin(shape, rowColumns: known.row.columns) } ?? true
                        if fits {
                            rows.append(patched)
                            changed = true
                            continue
                        }
                        refetch = true
                    }
                    outside[k] = Known(row: patched, shape: known.shape)
                }
            case .delete:
                let before = rows.count
                rows.removeAll { evaluator.evaluate(mutation.filters, on: $0) == .true }
                changed = rows.count != before
                outside = outside.filter { evaluator.evaluate(mutation.filters, on: $0.value.row) != .true }
            }
            if changed && write.isQueued { pending = true }
        }
        return OverlayResult(rows: rows, hasPendingMutations: pending, needsRefetch: refetch)
    }

    /// Whether a list reads plain columns by name (a row returned with an extra column cannot
    /// join it).
    func readsNamedColumns(_ query: QueryDescription) -> Bool { query.select != "*" }

    /// An accepted write patched into every list of the table (and reads with nothing cached).
    /// With `returned`, the server sent back each inserted or upserted row plus a `server` column.
    func patch(
        _ write: Mutation, returned: Bool, lists: [CachedList], uncached: [QueryDescription]
    ) -> OnlinePatchResult {
        var laid = write.rows
        if returned { laid = laid.map { $0.merging(["server": 1]) } }
        switch write.operation {
        case .insert, .upsert:
            let conflict = write.operation == .upsert ? (write.onConflict ?? ["id"]) : ["id"]
            if write.operation == .upsert
                && write.rows.contains(where: { row in
                    conflict.contains { row[$0] == nil || row[$0] == .null }
                })
            {
                return OnlinePatchResult(
                    lists: lists.map { _ in .stale }, uncachedReads: uncached.map { _ in .stale })
            }
            let cached = lists.map { list -> ListPatch in
                var rows = list.rows
                for row in laid {
                    var match = rows.firstIndex { sameValues($0, row, conflict) }
                    if match == nil, let k = key(row) { match = rows.firstIndex { key($0) == k } }
                    if let match {
                        if returned && readsNamedColumns(list.query) { return .stale }
                        let merged = rows[match].merging(row)
                        if admits(list.query, merged) == .false {
                            rows.remove(at: match)
                        } else {
                            rows[match] = merged
                        }
                    } else if admits(list.query, row) != .false {
                        if returned && readsNamedColumns(list.query) { return .stale }
                        rows.append(row)
                    }
                }
                return rows == list.rows ? .unchanged : .rows(rows)
            }
            let waiting = uncached.map { query -> ListPatch in
                let admitted = laid.filter { admits(query, $0) != .false }
                if admitted.isEmpty { return .unchanged }
                return returned && readsNamedColumns(query) ? .stale : .rows(admitted)
            }
            return OnlinePatchResult(lists: cached, uncachedReads: waiting)
        case .update, .delete:
            let cannotTell = lists.contains { list in
                list.rows.contains { evaluator.evaluate(write.filters, on: $0) == .unknown }
            }
            if write.operation == .update && cannotTell {
                return OnlinePatchResult(
                    lists: lists.map { _ in .stale }, uncachedReads: uncached.map { _ in .stale })
            }
            return OnlinePatchResult(
                lists: patchWithoutReturn(write, lists: lists),
                uncachedReads: uncached.map { _ in .unchanged })
        }
    }

    /// An accepted UPDATE or DELETE that sent no rows back, patched into every list.
    func patchWithoutReturn(_ write: Mutation, lists: [CachedList]) -> [ListPatch] {
        switch write.operation {
        case .insert, .upsert:
            return []  // laid by `patch`
        case .update:
            for list in lists {
                for row in list.rows where evaluator.evaluate(write.filters, on: row) == .unknown {
                    return lists.map { _ in .stale }
                }
            }
            let patch = write.rows.reduce(Row([:])) { $0.merging($1) }
            var held = [String: (Row, ReadShape)]()
            for list in lists.sorted(by: { $0.fetchTick < $1.fetchTick }) {
                for row in list.rows { if let k = key(row) { held[k] = (row, ReadShape(list.query)) } }
            }
            return lists.map { list in
                var rows = [Row]()
                for row in list.rows {
                    if evaluator.evaluate(write.filters, on: row) == .true {
                        let patched = row.merging(patch)
                        if admits(list.query, patched) != .false { rows.append(patched) }
                    } else {
                        rows.append(row)
                    }
                }
                for k in held.keys.sorted() where !list.rows.contains(where: { key($0) == k }) {
                    guard let (row, shape) = held[k], evaluator.evaluate(write.filters, on: row) == .true
                    else {
                        continue
                    }
                    let patched = row.merging(patch)
                    if admits(list.query, row) == .false && admits(list.query, patched) != .false {
                        guard shape.mayJoin(ReadShape(list.query), rowColumns: row.columns) else {
                            return .stale
                        }
                        rows.append(patched)
                    }
                }
                return rows == list.rows ? .unchanged : .rows(rows)
            }
        case .delete:
            return lists.map { list in
                if list.rows.contains(where: { evaluator.evaluate(write.filters, on: $0) == .unknown }) {
                    return .stale
                }
                let rows = list.rows.filter { evaluator.evaluate(write.filters, on: $0) != .true }
                return rows.count == list.rows.count ? .unchanged : .rows(rows)
            }
        }
    }
}

@Suite("Overlay: model-based property")
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
        var random = SeededRandom(state: 20_261_129)
        for sequence in 0..<2_000 {
            let lists = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.list(&random) }
            let others = Array(lists.dropFirst())
            let replayed = (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.write(&random) }
            let queued = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.write(&random) }
            let split = Int.random(in: 0...queued.count, using: &random)
            var fold = OverlayFold<TestEvaluator>(
                list: lists[0], otherLists: others, primaryKeys: PrimaryKeys(), replayed: replayed,
                queued: Array(queued[..<split]))
            let extended = fold.extend(to: queued)
            #expect(extended, "sequence \(sequence)")
            let expected = overlay.apply(
                replayed.map { OverlayWrite($0, isQueued: false) }
                    + queued.map { OverlayWrite($0, isQueued: true) },
                to: lists[0], otherLists: others)
            #expect(fold.result == expected, "sequence \(sequence)")
        }
    }

    @Test("a fold does not extend to a queue that lost a write it laid")
    func foldRefusesAShorterQueue() {
        var random = SeededRandom(state: 7)
        let list = Self.list(&random)
        let queued = (0..<3).map { _ in Self.write(&random) }
        var fold = OverlayFold<TestEvaluator>(
            list: list, otherLists: [], primaryKeys: PrimaryKeys(), replayed: [], queued: queued)
        let withoutFirst = fold.extend(to: Array(queued.dropFirst()))
        let withoutMiddle = fold.extend(to: [queued[0], queued[2]])
        let unchanged = fold.extend(to: queued)
        #expect(!withoutFirst)
        #expect(!withoutMiddle)
        #expect(unchanged)
    }

    @Test("the overlay agrees with a plain replay of the rules on 2,000 random write sequences")
    func agreesWithModel() {
        let model = OverlayModel()
        let overlay = TestOverlay()
        let seed = ProcessInfo.processInfo.environment["OVERLAY_SEED"].flatMap { UInt64($0) } ?? 20_240_601
        var random = SeededRandom(state: seed)
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
