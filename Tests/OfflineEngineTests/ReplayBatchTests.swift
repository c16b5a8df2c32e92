import Foundation
import Testing

@testable import OfflineEngine

/// Which consecutive writes of a run share a request (`ReplayBatch.batches`), with plain values.
@Suite("Replay batches: which writes share a request", .timeLimit(.minutes(10)))
struct ReplayBatchTests {
    private static func write(_ mutation: Mutation) -> ReplayRun.Write {
        ReplayRun.Write(mutation: mutation, life: WriteLife.restored(attempts: 0, interrupted: false))
    }

    private static func insert(
        _ row: Row, table: String = "tasks", schema: String? = nil, defaults: Bool = false
    )
        -> ReplayRun.Write
    {
        write(
            Mutation(
                schema: schema, table: table, operation: .insert, rows: [row], useDefaultForMissing: defaults)
        )
    }

    private static func byKey(_ operation: MutationOperation, _ id: Int, patch: Row? = nil) -> ReplayRun.Write
    {
        let filter = Filter.condition(FilterCondition(column: "id", op: .eq, operand: .value(String(id))))
        return write(
            Mutation(table: "tasks", operation: operation, rows: patch.map { [$0] } ?? [], filters: [filter]))
    }

    /// How many writes each batch holds.
    private static func sizes(_ writes: [ReplayRun.Write], _ limits: ReplayBatching = ReplayBatching())
        -> [Int]
    {
        ReplayBatch.batches(of: writes, limits: limits, primaryKeys: PrimaryKeys()).map(\.writes.count)
    }

    @Test("inserts with other columns join only when absent columns take their default")
    func columns() {
        let plain = [Self.insert(["id": 1, "a": 1]), Self.insert(["id": 2]), Self.insert(["id": 3])]
        #expect(Self.sizes(plain) == [1, 2])
        let defaults = [
            Self.insert(["id": 1, "a": 1], defaults: true), Self.insert(["id": 2], defaults: true),
            Self.insert(["id": 3], defaults: false),
        ]
        #expect(Self.sizes(defaults) == [2, 1])
    }

    @Test("another schema or table, or a write over the byte cap, starts a batch of its own")
    func boundaries() {
        let writes = [
            Self.insert(["id": 1]), Self.insert(["id": 2], schema: "private"),
            Self.insert(["id": 3], table: "notes"),
            Self.insert(["id": 4], table: "notes"),
        ]
        #expect(Self.sizes(writes) == [1, 1, 2])
        let large = Self.insert(["id": 5, "text": .string(String(repeating: "x", count: 100))])
        #expect(
            Self.sizes([Self.insert(["id": 1]), large, Self.insert(["id": 6])], ReplayBatching(maxBytes: 60))
                == [1, 1, 1])
    }

    @Test("updates and deletes by key join up to 100 keys; an update joins only the same change")
    func byKeys() {
        let deletes = (1...150).map { Self.byKey(.delete, $0) }
        #expect(Self.sizes(deletes) == [100, 50])
        let updates = [
            Self.byKey(.update, 1, patch: ["done": true]), Self.byKey(.update, 2, patch: ["done": true]),
            Self.byKey(.update, 3, patch: ["done": false]), Self.byKey(.update, 3, patch: ["done": false]),
        ]
        // The same key twice never shares a request.
        #expect(Self.sizes(updates) == [2, 1, 1])
        let request = ReplayBatch(writes: Array(updates[0...1])).request
        #expect(
            request.filters == [
                .condition(FilterCondition(column: "id", op: .in, operand: .list(["1", "2"])))
            ])
        #expect(request.rows == [["done": true]])
    }

    @Test("the rows of a batch go in queue order, in one request")
    func request() {
        let batch = ReplayBatch(writes: [Self.insert(["id": 1]), Self.insert(["id": 2])])
        #expect(batch.request.rows == [["id": 1], ["id": 2]])
        let (first, second) = batch.halves
        #expect(first.ids == [batch.ids[0]] && second.ids == [batch.ids[1]])
    }
}
