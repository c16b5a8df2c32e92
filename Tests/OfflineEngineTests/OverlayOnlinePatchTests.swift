import Foundation
import Testing

@testable import OfflineEngine

@Suite("Overlay: accepted writes patched into the cache", .timeLimit(.minutes(10)))
struct OverlayOnlinePatchTests {
    typealias F = OverlayFixture

    let open = F.list(filters: [F.eq("done", "false")], rows: [["id": "a", "done": false, "title": "A"]])
    let done = F.list(filters: [F.eq("done", "true")], rows: [["id": "d", "done": true, "title": "D"]])

    @Test(
        "the rows the server returned join every cached list that admits them, merged with the columns sent")
    func returnedRowsJoin() {
        let insert = F.write(.insert, rows: [["id": "n", "done": false, "title": "N"]], returning: "*")
        let result = TestOverlay().patch(
            insert, returned: [["id": "n", "done": false, "created_at": "2024"]], into: [open, done])
        #expect(
            result.lists[0]
                == .rows(open.rows + [["id": "n", "done": false, "title": "N", "created_at": "2024"]]))
        #expect(result.lists[1] == .unchanged)
    }

    @Test("the rows sent are patched in when the server returned none")
    func sentRowsWhenNoneReturned() {
        let insert = F.write(.insert, rows: [["id": "n", "done": true]])
        let result = TestOverlay().patch(insert, returned: nil, into: [open, done])
        #expect(result.lists == [.unchanged, .rows(done.rows + [["id": "n", "done": true]])])
    }

    @Test("a live read with nothing cached gets the written rows it admits")
    func uncachedReadGetsRows() {
        let insert = F.write(.insert, rows: [["id": "n", "done": true], ["id": "m", "done": false]])
        let result = TestOverlay().patch(insert, returned: nil, into: [], uncachedReads: [done.query])
        #expect(result.uncachedReads == [.rows([["id": "n", "done": true]])])
    }

    @Test("an accepted UPDATE patches held rows and moves them between cached lists")
    func updateMovesHeldRows() {
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")])
        let result = TestOverlay().patch(update, returned: nil, into: [open, done])
        #expect(result.lists == [.rows([]), .rows(done.rows + [["id": "a", "done": true, "title": "A"]])])
    }

    @Test("limit: an online update brings in only rows a cached list holds")
    func updateBringsOnlyHeldRows() {
        let update = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "z")], returning: "*")
        let result = TestOverlay().patch(
            update, returned: [["id": "z", "done": true, "title": "Z"]], into: [open, done],
            uncachedReads: [done.query])
        #expect(result.lists == [.unchanged, .unchanged])
        #expect(result.uncachedReads == [.unchanged])
    }

    @Test("an UPDATE filtered by something the cache cannot evaluate marks the lists it may reach stale")
    func unknownUpdateStale() {
        let update = F.write(.update, rows: [["title": "x"]], filters: [F.condition("priority", .lt, "3")])
        let notes = F.list("notes", rows: [["id": "n"]])
        let result = TestOverlay().patch(update, returned: nil, into: [open, done, notes])
        #expect(result.lists == [.stale, .stale, .unchanged])
    }

    @Test("a DELETE filtered by something the cache cannot evaluate marks the lists holding such rows stale")
    func unknownDeleteStale() {
        let delete = F.write(.delete, filters: [F.condition("title", .like, "A*")])
        let empty = F.list(rows: [])
        let result = TestOverlay().patch(delete, returned: nil, into: [open, empty])
        #expect(result.lists == [.stale, .unchanged])
    }

    @Test("an accepted DELETE removes the returned rows, or those its filter provably matches")
    func deleteRemoves() {
        let byFilter = F.write(.delete, filters: [F.eq("id", "a")])
        #expect(
            TestOverlay().patch(byFilter, returned: nil, into: [open, done]).lists == [.rows([]), .unchanged])
        let byReturn = F.write(.delete, filters: [F.condition("title", .like, "*")], returning: "id")
        let result = TestOverlay().patch(byReturn, returned: [["id": "d"]], into: [open, done])
        #expect(result.lists == [.unchanged, .rows([])])
    }

    @Test("an upsert without keys marks the lists of its table stale")
    func upsertWithoutKeysStale() {
        let upsert = F.write(.upsert, rows: [["title": "no key"]])
        #expect(TestOverlay().patch(upsert, returned: nil, into: [open]).lists == [.stale])
    }

    @Test("a write to another schema marks the lists it may reach stale")
    func otherSchemaStale() {
        let insert = F.write(.insert, rows: [["id": "n", "done": false]], schema: "private")
        let result = TestOverlay().patch(insert, returned: nil, into: [open], uncachedReads: [done.query])
        #expect(result.lists == [.stale])
        #expect(result.uncachedReads == [.stale])
    }

    @Test("a row returned with other columns than a list reads marks that list stale instead of joining")
    func otherColumnsStale() {
        let narrow = F.list(
            select: "id,done", filters: [F.eq("done", "false")], rows: [["id": "a", "done": false]])
        let insert = F.write(.insert, rows: [["id": "n", "done": false]], returning: "*")
        let returned: [Row] = [["id": "n", "done": false, "title": nil]]
        let result = TestOverlay().patch(insert, returned: returned, into: [narrow, open])
        #expect(result.lists[0] == .stale)
        #expect(result.lists[1] == .rows(open.rows + [["id": "n", "done": false, "title": nil]]))
        let sameColumns = F.write(.insert, rows: [["id": "n", "done": false]], returning: "done,id")
        let fits = TestOverlay().patch(sameColumns, returned: [["id": "n", "done": false]], into: [narrow])
        #expect(fits.lists == [.rows(narrow.rows + [["id": "n", "done": false]])])
    }

    @Test("a row joins a select() list only when it carries every column the list reads; else it is stale")
    func partialRowDoesNotJoinFullList() {
        let narrow = F.list(
            select: "id,done", filters: [F.eq("done", "false")], rows: [["id": "a", "done": false]])
        let narrowAnswer = F.write(
            .update, rows: [["done": true]], filters: [F.eq("id", "a")], returning: "id,done")
        let partial = TestOverlay().patch(
            narrowAnswer, returned: [["id": "a", "done": true]], into: [narrow, done])
        #expect(partial.lists == [.rows([]), .stale])
        // The whole row came back: it joins.
        let fullAnswer = F.write(.update, rows: [["done": true]], filters: [F.eq("id", "a")], returning: "*")
        let whole: [Row] = [["id": "a", "done": true, "title": "A"]]
        let full = TestOverlay().patch(fullAnswer, returned: whole, into: [narrow, done])
        #expect(full.lists == [.stale, .rows(done.rows + whole)])
        // A row a select() list holds takes a narrow answer over its other columns, and joins whole.
        let held = TestOverlay().patch(
            narrowAnswer, returned: [["id": "a", "done": true]], into: [open, done])
        #expect(held.lists == [.rows([]), .rows(done.rows + whole)])
    }

    @Test("a list with aliases, casts, JSON paths or embeds takes no returned row: it is fetched again")
    func complexSelectStale() {
        let insert = F.write(.insert, rows: [["id": "n"]], returning: "*")
        for select in ["id,heading:title", "id,title::text", "id,data->x", "*,author:profiles(name)"] {
            let list = F.list(select: select, rows: [])
            #expect(TestOverlay().patch(insert, returned: [["id": "n"]], into: [list]).lists == [.stale])
        }
        let same = F.list(select: "id,heading:title", rows: [])
        let asked = F.write(.insert, rows: [["id": "n", "title": "T"]], returning: "id,heading:title")
        let result = TestOverlay().patch(asked, returned: [["id": "n", "heading": "T"]], into: [same])
        #expect(result.lists == [.rows([["id": "n", "title": "T", "heading": "T"]])])
    }

    @Test("a list with other embed options takes no returned row: it is fetched again")
    func embedOptionsStale() {
        let list = F.list(
            select: "*,author:profiles(name)", rows: [],
            embedParameters: [QueryParameter(name: "author.order", value: "name")])
        let insert = F.write(.insert, rows: [["id": "n"]], returning: "*,author:profiles(name)")
        let result = TestOverlay().patch(insert, returned: [["id": "n", "author": nil]], into: [list])
        #expect(result.lists == [.stale])
    }

    @Test("a key sent in capitals matches the key returned in lower case: one row")
    func capitalsMatch() {
        let upper = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
        let list = F.list(rows: [["id": .string(upper.lowercased()), "title": "old"]])
        let upsert = F.write(.upsert, rows: [["id": .string(upper), "title": "new"]], returning: "*")
        let result = TestOverlay().patch(
            upsert, returned: [["id": .string(upper.lowercased()), "title": "new"]], into: [list])
        #expect(result.lists == [.rows([["id": .string(upper.lowercased()), "title": "new"]])])
    }

    @Test("a write that asked for its rows back and got none changed nothing")
    func emptyReturnChangesNothing() {
        let update = F.write(.update, rows: [["title": "x"]], filters: [F.eq("id", "a")], returning: "*")
        #expect(TestOverlay().patch(update, returned: [], into: [open]).lists == [.unchanged])
    }

    @Test("an accepted UPDATE with rows returned patches the held rows with the server's values")
    func updateWithReturnedRows() {
        let update = F.write(.update, rows: [["title": "sent"]], filters: [F.eq("id", "a")], returning: "*")
        let returned: [Row] = [["id": "a", "done": false, "title": "trimmed by a trigger"]]
        let result = TestOverlay().patch(update, returned: returned, into: [open, done])
        #expect(
            result.lists == [
                .rows([["id": "a", "done": false, "title": "trimmed by a trigger"]]), .unchanged,
            ])
    }

    @Test("an accepted UPSERT merges into the row with the same onConflict columns")
    func upsertByConflictColumns() {
        let list = F.list("profiles", rows: [["id": "p1", "email": "x@y", "name": "old"]])
        let upsert = F.write(
            .upsert, table: "profiles", rows: [["email": "x@y", "name": "new"]], onConflict: ["email"])
        let result = TestOverlay().patch(upsert, returned: nil, into: [list])
        #expect(result.lists == [.rows([["id": "p1", "email": "x@y", "name": "new"]])])
    }

    @Test("an accepted write to another table leaves a list unchanged")
    func otherTableUnchanged() {
        let insert = F.write(.insert, table: "notes", rows: [["id": "n"]])
        #expect(TestOverlay().patch(insert, returned: nil, into: [open]).lists == [.unchanged])
    }
}
