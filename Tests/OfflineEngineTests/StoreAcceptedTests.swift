import Foundation
import Testing

@testable import OfflineEngine

/// The ids of accepted writes are found through an index of their first 8 characters (schema
/// version 7): ids that share those characters are told apart, and the lookup uses the index
/// rather than reading the whole table.
@Suite("Store accepted ids", .timeLimit(.minutes(10)))
struct StoreAcceptedTests {
    /// Writes whose ids all begin with the same 8 characters, queued and then accepted.
    private static func acceptedWrites(_ count: Int, _ store: Store) async throws -> [Mutation] {
        var writes: [Mutation] = []
        for index in 0..<count {
            let text = String(format: "0badcafe-0000-4000-8000-%012x", index)
            let write = Mutation(
                id: try #require(UUID(uuidString: text)), ownerID: "user-1", table: "tasks",
                operation: .insert, rows: [["id": .number(JSONNumber(index))]])
            try await store.queue.enqueue(write)
            writes.append(write)
        }
        let returned = Dictionary(uniqueKeysWithValues: writes.map { ($0.id, $0.rows) })
        _ = try await store.replayLog.moveFromQueueAtNewTick(writes.map(\.id), returned: returned)
        return writes
    }

    @Test("ids that share their first 8 characters are each found with their own rows")
    func sharedPrefix() async throws {
        let store = try Store.open(.inMemory)
        let writes = try await Self.acceptedWrites(5, store)
        for write in writes {
            #expect(try await store.accepted.accepted(write.id)?.rows == write.rows)
        }
        let unknown = try #require(UUID(uuidString: "0badcafe-0000-4000-8000-0000000000ff"))
        #expect(try await store.accepted.accepted(unknown) == nil)
        await store.close()
    }

    @Test("a lookup searches the prefix index, not the whole table")
    func lookupUsesTheIndex() async throws {
        let store = try Store.open(.inMemory)
        let plan = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "EXPLAIN QUERY PLAN " + AcceptedTable.lookup, .text("0badcafe-0000-4000-8000-000000000000")
            ) { row in row.text(3) ?? "" }
        }
        #expect(plan.contains { $0.contains("SEARCH accepted USING INDEX accepted_by_id_prefix") }, "\(plan)")
        await store.close()
    }
}
