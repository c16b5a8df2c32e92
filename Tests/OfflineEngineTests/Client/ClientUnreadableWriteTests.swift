import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Opening the client reads the queue's columns and leaves each write's stored bytes undecoded
/// until they are needed, so damage to those bytes is found then, not at open.
@Suite("A queued write whose stored copy is damaged", .timeLimit(.minutes(10)))
struct ClientUnreadableWriteTests {
    @Test(
        "the client opens; the damaged DELETE is never sent and hides no row; the write after it replays; it is rejected with a reason that names no data, and reads back at the next open"
    )
    func damagedDelete() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let rows: [Row] = [["id": 1, "title": "a"], ["id": 2, "title": "b"]]
            let keys = ["tasks": ["id"]]
            let first = try await ClientFixture(
                tables: ["tasks": rows], primaryKeys: keys, storage: .directory(folder))
            let list = first.client.from("tasks").select()
            _ = try await firstValue(of: list.snapshots()) { $0.result != nil }
            await first.client.disableNetwork()
            _ = try await first.client.from("tasks").delete().eq("id", value: 1).execute()
            _ = try await first.client.from("tasks").insert(["id": 3, "title": "secret-title"] as Row)
                .execute()
            await first.client.close()
            try Self.damageOldestQueuedWrite(in: folder)

            let second = try await ClientFixture(
                primaryKeys: keys, storage: .directory(folder), server: first.server, probe: ServerProbe())
            let shown = AsyncLog<QuerySnapshot>()
            let watching = collect(second.client.from("tasks").select().snapshots(), into: shown)
            let rejected = try await firstValue(of: second.client.rejectedMutations()) { !$0.isEmpty }
            _ = try await firstValue(of: second.client.pendingMutationCount()) { $0 == 0 }
            _ = try await withTimeout(30) {
                var seen = shown.values
                while seen.last?.column("id") != ["1", "2", "3"] {
                    seen = try await shown.values(atLeast: seen.count + 1)
                }
            }
            watching.cancel()
            await watching.value

            #expect(rejected.count == 1)
            #expect(rejected.first?.error.code == RejectedMutation.unreadableCode)
            #expect(rejected.first?.operation == .delete && rejected.first?.table == "tasks")
            let reason = rejected.first.map { "\($0.error)" } ?? ""
            #expect(
                reason.contains("could not be read") && !reason.contains("secret")
                    && !reason.contains("title"))
            #expect(second.writes.map(\.method) == [.post], "the DELETE is never sent")
            #expect(await second.server.rows(of: "tasks").map { $0["id"] } == [1, 2, 3])
            for snapshot in shown.values where snapshot.result != nil {
                #expect(snapshot.column("id").contains("1"), "a DELETE that could not be read hides no row")
            }
            await second.client.close()

            let third = try await ClientFixture(
                primaryKeys: keys, storage: .directory(folder), server: first.server, probe: ServerProbe())
            let again = try await firstValue(of: third.client.rejectedMutations()) { !$0.isEmpty }
            #expect(again.map(\.id) == rejected.map(\.id))
            await third.client.close()
        }
    }

    @Test("the store reads a damaged write back from its columns, without decoding the rest of the queue")
    func storeReadsColumns() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let store = try Store.open(.directory(folder))
            let damaged = Mutation(
                ownerID: "user-1", schema: "private", table: "notes", operation: .update,
                rows: [["title": "x"]],
                filters: [.condition(FilterCondition(column: "id", op: .eq, operand: .value("1")))])
            let intact = Mutation(ownerID: "user-1", table: "tasks", operation: .insert, rows: [["id": 2]])
            try await store.queue.enqueue(damaged)
            try await store.queue.enqueue(intact)
            await store.close()
            try Self.damageOldestQueuedWrite(in: folder)

            let reopened = try Store.open(.directory(folder))
            let queued = try await reopened.queue.all().map(\.mutation)
            await reopened.close()
            #expect(queued.map(\.id) == [damaged.id, intact.id])
            #expect(
                queued[0].table == "notes" && queued[0].schema == "private" && queued[0].operation == .update)
            #expect(queued[0].ownerID == "user-1")
            #expect(abs(queued[0].createdAt.timeIntervalSince(damaged.createdAt)) < 0.001)
            #expect(!queued[0].isReadable && queued[0].rows.isEmpty && queued[0].filters.isEmpty)
            #expect(queued[1].rows == intact.rows && queued[1].isReadable)
            #expect(throws: StoredWriteUnreadable.self) {
                _ = try RequestBuilder.request(
                    for: queued[0],
                    endpoint: RESTEndpoint(url: URL(string: "https://example.invalid")!, apiKey: "k"),
                    accessToken: nil)
            }
        }
    }

    @Test(
        "a write whose stored copy could not be read is laid over no list",
        arguments: MutationOperation.allCases)
    func unreadableIsNotLaid(operation: MutationOperation) {
        let unreadable = Mutation(
            storedAs: Data("not a write".utf8), id: UUID(), ownerID: nil, schema: nil, table: "tasks",
            operation: operation, createdAt: Date(), attempts: 0)
        let rows: [Row] = [["id": 1, "title": "a"], ["id": 2, "title": "b"]]
        let list = CachedList(query: QueryDescription(table: "tasks"), rows: rows, fetchTick: 1)
        let shown = Overlay.engine(primaryKeys: PrimaryKeys(["tasks": ["id"]])).read(
            list, queue: [unreadable], replayLog: [], ownerID: nil)
        #expect(Array(shown.rows) == rows)
        #expect(!shown.hasPendingMutations)
        #expect(!unreadable.isReadable)
    }

    /// Overwrites the stored bytes of the oldest queued write with text that is not a write.
    private static func damageOldestQueuedWrite(in folder: URL) throws {
        let raw = try SQLiteConnection(path: folder.appendingPathComponent(Storage.fileName).path)
        try raw.execute(
            script: """
                UPDATE queue SET payload = CAST('{"op":"delete","rows":[' AS BLOB)
                WHERE seq = (SELECT min(seq) FROM queue)
                """)
        _ = consume raw
    }
}
