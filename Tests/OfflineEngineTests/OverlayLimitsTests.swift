import Foundation
import Testing

@testable import OfflineEngine

@Suite("Overlay: limits, reproduced as documented", .timeLimit(.minutes(10)))
struct OverlayLimitsTests {
    typealias F = OverlayFixture

    @Test("limit: a queued row is appended past the list's limit")
    func pastLimit() {
        let list = F.list(rows: [["id": "a"], ["id": "b"]], limit: 2, order: [OrderTerm(column: "id")])
        #expect(F.ids(F.shown(list, [F.write(.insert, rows: [["id": "0"]])]).rows) == ["a", "b", "0"])
    }

    @Test("limit: a queued row shows on every page whose filters admit it")
    func everyPage() {
        let open = [F.eq("done", "false")]
        let first = F.list(filters: open, rows: [["id": "a", "done": false]], limit: 1)
        let second = F.list(filters: open, rows: [["id": "b", "done": false]], limit: 1, offset: 1)
        let insert = F.write(.insert, rows: [["id": "n", "done": false]])
        #expect(F.ids(F.shown(first, [insert]).rows) == ["a", "n"])
        #expect(F.ids(F.shown(second, [insert]).rows) == ["b", "n"])
    }

    @Test("limit: an edited sort column does not move the row")
    func sortNotApplied() {
        let list = F.list(
            rows: [["id": "a", "rank": 1], ["id": "b", "rank": 2]], order: [OrderTerm(column: "rank")])
        let update = F.write(.update, rows: [["rank": 9]], filters: [F.eq("id", "a")])
        #expect(F.shown(list, [update]).rows == [["id": "a", "rank": 9], ["id": "b", "rank": 2]])
    }

    @Test("limit: a queued row carries only the columns it wrote, without embeds, under the names written")
    func writtenColumnsOnly() {
        let list = F.list(
            select: "id,heading:title,author:profiles(name)",
            rows: [["id": "a", "heading": "A", "author": ["name": "Ann"]]])
        let insert = F.write(.insert, rows: [["id": "n", "title": "N"]])
        let shown = F.shown(list, [insert])
        #expect(shown.rows.last == ["id": "n", "title": "N"])
        #expect(!shown.needsRefetch)
    }

    @Test("limit: a row read with other columns never joins a list, which is fetched again instead")
    func otherColumnsNeverJoin() {
        let done = F.list(select: "id,done", filters: [F.eq("done", "true")], rows: [])
        let narrowOpen = F.list(
            select: "id,done,title", filters: [F.eq("done", "false")],
            rows: [
                ["id": "a", "done": false, "title": "A"]
            ])
        let sameOpen = F.list(
            select: "done,id", filters: [F.eq("done", "false")], rows: [["id": "b", "done": false]])
        let update = F.write(.update, rows: [["done": true]], filters: [F.inList("id", ["a", "b"])])
        let shown = F.shown(done, [update], otherLists: [narrowOpen, sameOpen])
        #expect(shown.rows == [["id": "b", "done": true]])
        #expect(shown.needsRefetch)
    }

    @Test(
        "limit: a row read with fewer columns never joins a select() list; the fetch is due once the write synced"
    )
    func narrowRowNeverJoinsFullList() {
        let full = F.list(filters: [F.eq("done", "true")], rows: [["id": "d", "done": true, "title": "D"]])
        let narrow = F.list(
            select: "id,done", filters: [F.eq("done", "false")], rows: [["id": "a", "done": false]])
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")])
        let queued = TestOverlay().read(
            full, otherLists: [narrow], queue: [update], replayLog: [], ownerID: "alice")
        #expect(Array(queued.rows) == full.rows)
        #expect(!queued.hasPendingMutations)
        #expect(queued.needsRefetch)
        #expect(!queued.refetchIsDue)
        let log = [ReplayEntry(tick: 1, mutation: update)]
        let synced = TestOverlay().read(
            full, otherLists: [narrow], queue: [], replayLog: log, ownerID: "alice")
        #expect(Array(synced.rows) == full.rows)
        #expect(synced.refetchIsDue)
        var fetched = full
        fetched.fetchTick = 2
        let after = TestOverlay().read(
            fetched, otherLists: [narrow], queue: [], replayLog: log, ownerID: "alice")
        #expect(!after.needsRefetch)
        // A row read with every column joins, as before.
        let wide = F.list(filters: [F.eq("done", "false")], rows: [["id": "a", "done": false, "title": "A"]])
        let joined = F.shown(full, [update], otherLists: [wide])
        #expect(Array(joined.rows) == full.rows + [["id": "a", "done": true, "title": "A"]])
        #expect(!joined.needsRefetch)
    }

    /// The reference's three kinds of embed options: a limit, an order, a filter.
    static let embedOptions = [
        QueryParameter(name: "author.limit", value: "1"), QueryParameter(name: "author.order", value: "name"),
        QueryParameter(name: "author.name", value: "eq.Ann"),
    ]

    @Test(
        "limit: a row read with other options for a table it embeds (a limit, an order, a filter) never joins a list",
        arguments: embedOptions)
    func otherEmbedOptionsNeverJoin(_ option: QueryParameter) {
        let select = "id,done,author:profiles(name)"
        let limited = F.list(
            select: select, filters: [F.eq("done", "true")], rows: [], embedParameters: [option])
        let plain = F.list(
            select: select, filters: [F.eq("done", "false")],
            rows: [
                ["id": "a", "done": false, "author": ["name": "Ann"]]
            ])
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")])
        let shown = F.shown(limited, [update], otherLists: [plain])
        #expect(shown.rows.isEmpty)
        #expect(shown.needsRefetch)
    }

    @Test("limit: a comparison that depends on the column's type touches nothing")
    func typeDependentTouchesNothing() {
        let list = F.list(rows: [["id": "a", "n": 7, "title": "t"]])
        let update = F.write(.update, rows: [["title": "u"]], filters: [F.eq("n", "007")])
        let delete = F.write(.delete, filters: [F.condition("title", .like, "t*")])
        #expect(Array(F.shown(list, [update, delete]).rows) == list.rows)
    }

    @Test("limit: a JSON null is read as SQL NULL")
    func jsonNullIsSQLNull() {
        let list = F.list(rows: [["id": "a", "meta": nil]])
        let update = F.write(.update, rows: [["title": "u"]], filters: [F.condition("meta", .is, "null")])
        #expect(F.shown(list, [update]).rows == [["id": "a", "meta": nil, "title": "u"]])
        let nullList = F.list(filters: [F.condition("meta", .is, "null")], rows: [])
        let insert = F.write(.insert, rows: [["id": "n", "meta": nil]])
        #expect(F.ids(F.shown(nullList, [insert]).rows) == ["n"])
    }

    @Test("limit: keys are read as UUIDs: a key in capitals matches it in lower case, one row shown")
    func uuidKeys() {
        let upper = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
        let list = F.list(rows: [["id": .string(upper.lowercased()), "title": "t"]])
        let upsert = F.write(.upsert, rows: [["id": .string(upper), "title": "u"]])
        let delete = F.write(.delete, filters: [F.eq("id", upper)])
        let shown = F.shown(list, [upsert]).rows
        #expect(shown.count == 1)
        #expect(shown.first?["title"] == "u")
        #expect(F.shown(list, [delete]).rows.isEmpty)
    }

    @Test("limit: an upsert keys on id unless it names conflict columns; without an id it adds a row")
    func upsertKeysOnID() {
        let list = F.list("tags", rows: [["name": "red", "color": "f00"]])
        let unnamed = F.write(.upsert, table: "tags", rows: [["name": "red", "color": "e00"]])
        let named = F.write(
            .upsert, table: "tags", rows: [["name": "red", "color": "e00"]], onConflict: ["name"])
        #expect(
            F.shown(list, [unnamed]).rows == [
                ["name": "red", "color": "f00"], ["name": "red", "color": "e00"],
            ])
        #expect(F.shown(list, [named]).rows == [["name": "red", "color": "e00"]])
    }

    @Test("limit: an ignore-duplicates upsert shows as though it landed")
    func ignoreDuplicatesLands() {
        let list = F.list(rows: [["id": "a", "title": "server"]])
        let upsert = F.write(
            .upsert, rows: [["id": "a", "title": "mine"], ["id": "b"]], ignoreDuplicates: true)
        // Sent with `columns=id,title`: the row without a title is inserted with NULL there.
        #expect(F.shown(list, [upsert]).rows == [["id": "a", "title": "mine"], ["id": "b", "title": nil]])
        let online = TestOverlay().patch(upsert, returned: nil, into: [list])
        #expect(online.lists == [.rows([["id": "a", "title": "mine"], ["id": "b", "title": nil]])])
    }

    @Test("limit: past 1,000 newer replayed writes an old list loses the oldest; a deleted row reappears")
    func replayCapReappears() {
        let list = F.list(rows: [["id": "a"]], fetchTick: 0)
        var log = [ReplayEntry(tick: 1, mutation: F.write(.delete, filters: [F.eq("id", "a")]))]
        log += (2...1_000).map {
            ReplayEntry(tick: $0, mutation: F.write(.insert, rows: [["id": .string("n\($0)")]]))
        }
        let before = TestOverlay().read(list, queue: [], replayLog: log, ownerID: "alice")
        #expect(!F.ids(before.rows).contains("a"))
        #expect(before.rows.count == 999)
        log.append(ReplayEntry(tick: 1_001, mutation: F.write(.insert, rows: [["id": "n1001"]])))
        let after = TestOverlay().read(list, queue: [], replayLog: log, ownerID: "alice")
        #expect(F.ids(after.rows).first == "a")
        #expect(after.rows.count == 1_001)
        var fetched = list
        fetched.fetchTick = 1_001
        fetched.rows = []
        #expect(TestOverlay().read(fetched, queue: [], replayLog: log, ownerID: "alice").rows.isEmpty)
    }
}
