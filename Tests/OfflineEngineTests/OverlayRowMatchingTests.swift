import Foundation
import Testing

@testable import OfflineEngine

@Suite("Overlay: how rows are matched", .timeLimit(.minutes(10)))
struct OverlayRowMatchingTests {
    typealias F = OverlayFixture

    let openList = F.list(filters: [F.eq("done", "false")], rows: [["id": "a", "done": false]])
    let doneList = F.list(filters: [F.eq("done", "true")], rows: [["id": "d", "done": true]])

    @Test("an INSERT joins every list whose filters may admit it, after the list's own rows")
    func insertJoins() {
        let insert = F.write(.insert, rows: [["id": "n", "done": false]])
        let everything = F.list(rows: [["id": "x", "done": true]])
        let unknown = F.list(filters: [F.condition("priority", .lt, "3")], rows: [["id": "y", "done": true]])
        #expect(F.ids(F.shown(openList, [insert]).rows) == ["a", "n"])
        #expect(F.ids(F.shown(everything, [insert]).rows) == ["x", "n"])
        #expect(F.ids(F.shown(unknown, [insert]).rows) == ["y", "n"])
        #expect(F.ids(F.shown(doneList, [insert]).rows) == ["d"])
    }

    @Test("an UPSERT merges into the row with the same key")
    func upsertMergesByKey() {
        let upsert = F.write(.upsert, rows: [["id": "a", "title": "new"]])
        let shown = F.shown(openList, [upsert]).rows
        #expect(shown == [["id": "a", "done": false, "title": "new"]])
    }

    @Test("an UPSERT merges into the row with the same onConflict columns")
    func upsertMergesByConflictColumns() {
        let list = F.list(rows: [["id": "a", "email": "x@y", "name": "old"]])
        let upsert = F.write(.upsert, rows: [["email": "x@y", "name": "new"]], onConflict: ["email"])
        #expect(F.shown(list, [upsert]).rows == [["id": "a", "email": "x@y", "name": "new"]])
    }

    @Test("an UPSERT with no matching row joins as an insert")
    func upsertJoinsAsInsert() {
        let upsert = F.write(.upsert, rows: [["id": "n", "done": false]])
        #expect(F.ids(F.shown(openList, [upsert]).rows) == ["a", "n"])
        #expect(F.ids(F.shown(doneList, [upsert]).rows) == ["d"])
    }

    @Test("an UPDATE patches the rows its filter provably matches")
    func updatePatches() {
        let list = F.list(rows: [["id": "a", "title": "t"], ["id": "b", "title": "t"]])
        let update = F.write(.update, rows: [["title": "u"]], filters: [F.eq("id", "b")])
        #expect(F.shown(list, [update]).rows == [["id": "a", "title": "t"], ["id": "b", "title": "u"]])
    }

    @Test("an UPDATE moves a row out of a list when its filters then fail")
    func updateMovesOut() {
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")])
        #expect(F.shown(openList, [update]).rows.isEmpty)
    }

    @Test("an UPDATE moves a row another cached list holds into a list it starts matching")
    func updateMovesIn() {
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")])
        let shown = F.shown(doneList, [update], otherLists: [openList])
        #expect(shown.rows == [["id": "d", "done": true], ["id": "a", "done": true]])
        #expect(shown.hasPendingMutations)
    }

    @Test("an UPDATE moves a row an earlier queued write made into a list it starts matching")
    func updateMovesWrittenRowIn() {
        let insert = F.write(.insert, rows: [["id": "n", "done": false]])
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "n")])
        #expect(F.ids(F.shown(doneList, [insert, update]).rows) == ["d", "n"])
        #expect(F.ids(F.shown(openList, [insert, update]).rows) == ["a"])
    }

    @Test("an UPDATE does not add a row whose membership did not change")
    func updateKeepsOtherPages() {
        let pageTwo = F.list(filters: [F.eq("done", "false")], rows: [["id": "b", "done": false]], offset: 1)
        let update = F.write(.update, rows: [["title": "x"]], filters: [F.eq("id", "b")])
        #expect(F.ids(F.shown(openList, [update], otherLists: [pageTwo]).rows) == ["a"])
    }

    @Test("a DELETE removes the rows its filter provably matches")
    func deleteRemoves() {
        let list = F.list(rows: [["id": "a"], ["id": "b"], ["id": "c"]])
        let delete = F.write(.delete, filters: [F.inList("id", ["a", "c"])])
        #expect(F.ids(F.shown(list, [delete]).rows) == ["b"])
    }

    @Test("unknown admits a new row but never lets a queued UPDATE or DELETE touch a row")
    func unknownTouchesNothing() {
        let list = F.list(rows: [["id": "a", "priority": 1, "title": "t"]])
        let lessThan = [F.condition("priority", .lt, "3")]
        let update = F.write(.update, rows: [["title": "u"]], filters: lessThan)
        let delete = F.write(.delete, filters: lessThan)
        let result = F.shown(list, [update, delete])
        #expect(Array(result.rows) == list.rows)
        #expect(!result.hasPendingMutations)
        let unknownList = F.list(filters: lessThan, rows: [])
        #expect(F.ids(F.shown(unknownList, [F.write(.insert, rows: [["id": "n"]])]).rows) == ["n"])
    }

    @Test("a row is recognized by the table's configured primary key")
    func configuredPrimaryKey() {
        let keys = PrimaryKeys(["tags": ["name"]])
        let list = F.list("tags", rows: [["name": "red", "color": "f00"]])
        let upsert = F.write(.upsert, table: "tags", rows: [["name": "red", "color": "e00"]])
        let delete = F.write(.delete, table: "tags", filters: [F.eq("name", "red")])
        #expect(F.shown(list, [upsert], primaryKeys: keys).rows == [["name": "red", "color": "e00"]])
        #expect(F.shown(list, [delete], primaryKeys: keys).rows.isEmpty)
    }

    @Test("writes to another table or schema are not laid over a list")
    func otherTables() {
        let insert = F.write(.insert, table: "notes", rows: [["id": "n", "done": false]])
        let otherSchema = F.write(.insert, rows: [["id": "m", "done": false]], schema: "private")
        #expect(F.ids(F.shown(openList, [insert, otherSchema]).rows) == ["a"])
    }

    @Test("an UPSERT whose conflict columns match no row merges into the row with the same key")
    func upsertFallsBackToKey() {
        let list = F.list(rows: [["id": "a", "email": "old@x"]])
        let upsert = F.write(.upsert, rows: [["id": "a", "email": "new@x"]], onConflict: ["email"])
        #expect(F.shown(list, [upsert]).rows == [["id": "a", "email": "new@x"]])
    }

    @Test("rows an UPDATE moves into a list join after its rows, in order of their keys")
    func movedRowsOrder() {
        let open = F.list(
            filters: [F.eq("done", "false")],
            rows: [["id": "c", "done": false], ["id": "b", "done": false]])
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("done", "false")])
        #expect(F.ids(F.shown(doneList, [update], otherLists: [open]).rows) == ["d", "b", "c"])
    }

    @Test("a row an UPDATE moves out of a list comes back when a later UPDATE moves it in again")
    func outAndBackIn() {
        let away = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")])
        let back = F.write(.update, rows: [["done": false]], filters: [F.eq("id", "a")])
        #expect(F.shown(openList, [away, back]).rows == [["id": "a", "done": false]])
    }
}
