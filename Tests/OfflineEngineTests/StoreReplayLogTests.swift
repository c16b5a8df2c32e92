import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store replay log", .timeLimit(.minutes(10)))
struct StoreReplayLogTests {
    @Test("a table keeps its newest 1,000 replayed writes; other tables are untouched")
    func capPerTable() async throws {
        let store = try Store.open(.inMemory)
        var writes: [Mutation] = []
        for index in 0..<1_005 {
            let write = sampleWrite(title: "\(index)")
            writes.append(write)
            try await store.replayLog.append(write, tick: Int64(index))
        }
        for index in 0..<3 {
            try await store.replayLog.append(sampleWrite(table: "tags"), tick: Int64(index))
        }
        let log = try await store.replayLog.writes(table: "tasks")
        #expect(log.count == 1_000)
        #expect(log.map(\.mutation.id) == writes.suffix(1_000).map(\.id))
        #expect(log.first?.tick == 5)
        #expect(try await store.replayLog.writes(table: "tags").count == 3)
        await store.close()
    }

    @Test("a replayed write settles in one commit: out of the queue, into the log and its mark at a new tick")
    func moveAtNewTick() async throws {
        let store = try Store.open(.inMemory)
        let write = sampleWrite()
        try await store.queue.enqueue(write)
        let before = store.marks.nextTick()
        let tick = try #require(try await store.replayLog.moveFromQueueAtNewTick(write.id))
        #expect(tick > before)
        #expect(try await store.queue.all().isEmpty)
        #expect(try await store.replayLog.writes(table: "tasks").map(\.tick) == [tick])
        #expect(try await store.marks.mark(table: "tasks") == tick)
        // Not queued any more: nothing changes, the mark stays.
        #expect(try await store.replayLog.moveFromQueueAtNewTick(write.id) == nil)
        #expect(try await store.marks.mark(table: "tasks") == tick)
        await store.close()
    }

    @Test("a replayed write moves from the queue to the log at its tick, and retires")
    func moveAndRetire() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = sampleWrite()
            let second = sampleWrite()
            var store = try Store.open(.directory(folder))
            try await store.queue.enqueue(first)
            try await store.queue.enqueue(second)
            #expect(try await store.replayLog.moveFromQueue(first.id, tick: 10))
            #expect(try await store.replayLog.moveFromQueue(UUID(), tick: 11) == false)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(try await store.queue.all().map(\.mutation.id) == [second.id])
            let log = try await store.replayLog.writes(table: "tasks")
            #expect(log.map(\.mutation.id) == [first.id])
            #expect(log.first?.tick == 10)
            #expect(log.first?.mutation.rows == first.rows)
            #expect(try await store.replayLog.retire(table: "tasks", through: 9) == 0)
            #expect(try await store.replayLog.retire(table: "tasks", through: 10) == 1)
            #expect(try await store.replayLog.writes(table: "tasks").isEmpty)
            await store.close()
        }
    }
}
