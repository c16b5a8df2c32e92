import Foundation
import Testing

@testable import OfflineEngine

@Suite("Overlay: pending mutations and their row keys", .timeLimit(.minutes(10)))
struct OverlayPendingMutationTests {
    typealias F = OverlayFixture

    @Test("an insert's or upsert's row keys are its rows' primary keys, UUIDs in lower case")
    func insertKeys() {
        let upper = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
        let insert = F.write(.insert, rows: [["id": .string(upper)], ["title": "no key"], ["id": 7]])
        let pending = PendingMutation(insert, primaryKeys: PrimaryKeys())
        #expect(pending.rowIDs == [upper.lowercased(), "7"])
        #expect(pending.rowKeys.map(\.values) == [[upper.lowercased()], ["7"]])
        #expect(pending.id == insert.id && pending.table == "tasks" && pending.operation == .insert)
        #expect(pending.ownerID == "alice" && pending.createdAt == insert.createdAt)
    }

    @Test("an update's or delete's row keys come from eq and in filters on the key column")
    func filterKeys() {
        let byID = F.write(
            .update, rows: [["done": true]], filters: [F.eq("id", "a"), F.eq("done", "false")])
        let byList = F.write(.delete, filters: [F.inList("id", ["a", "b", "a"])])
        let byOther = F.write(.delete, filters: [F.eq("title", "x")])
        let negated = F.write(
            .delete,
            filters: [.condition(FilterCondition(column: "id", op: .eq, operand: .value("a"), negated: true))]
        )
        #expect(PendingMutation(byID, primaryKeys: PrimaryKeys()).rowIDs == ["a"])
        #expect(PendingMutation(byList, primaryKeys: PrimaryKeys()).rowIDs == ["a", "b"])
        #expect(PendingMutation(byOther, primaryKeys: PrimaryKeys()).rowIDs.isEmpty)
        #expect(PendingMutation(negated, primaryKeys: PrimaryKeys()).rowIDs.isEmpty)
    }

    @Test("a composite key's row key comes from eq filters on each key column")
    func compositeKeys() {
        let keys = PrimaryKeys(["members": ["team", "user"]])
        let delete = F.write(.delete, table: "members", filters: [F.eq("user", "u"), F.eq("team", "t")])
        let insert = F.write(.insert, table: "members", rows: [["team": "t", "user": "u"]])
        #expect(PendingMutation(delete, primaryKeys: keys).rowIDs == ["t,u"])
        #expect(PendingMutation(insert, primaryKeys: keys).rowIDs == ["t,u"])
    }

    @Test("an upsert's row keys are its rows' primary keys even when it names conflict columns")
    func upsertKeysByPrimaryKey() {
        let upsert = F.write(
            .upsert, rows: [["id": "a", "email": "x@y"], ["email": "z@y"]], onConflict: ["email"])
        #expect(PendingMutation(upsert, primaryKeys: PrimaryKeys()).rowIDs == ["a"])
    }
}
