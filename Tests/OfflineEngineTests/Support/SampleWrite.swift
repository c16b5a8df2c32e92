import Foundation

@testable import OfflineEngine

/// A realistic queued insert for tests.
func sampleWrite(table: String = "tasks", owner: String? = "user-1", title: String = "buy milk") -> Mutation {
    let row: Row = [
        "id": .string(UUID().uuidString.lowercased()), "title": .string(title), "done": false,
        "big": .number(JSONNumber(text: "9007199254740993")!), "price": .number(JSONNumber(text: "1.50")!),
    ]
    return Mutation(ownerID: owner, table: table, operation: .insert, rows: [row])
}
