import Foundation
import Testing

@testable import OfflineEngine

/// Ticks order a request against the changes of its table: a tick is read without a commit, and
/// a tick read after a relaunch is larger than every tick stored before it.
@Suite("Store ticks", .timeLimit(.minutes(10)))
struct StoreTickTests {
    @Test("a tick is read without a commit, and larger than the tick read before it")
    func tickCostsNoCommit() async throws {
        let store = try Store.open(.inMemory)
        let before = store.commitHooks.commits
        let first = store.marks.nextTick()
        let second = store.marks.nextTick()
        #expect(second > first)
        #expect(store.commitHooks.commits == before)
        // A change's tick, taken after, is larger still.
        #expect(try await store.marks.advance(table: "tasks") > second)
        await store.close()
    }

    @Test(
        "after a relaunch a tick is larger than every tick stored: marks, lists' marks, the replay log, a clear's"
    )
    func ticksGrowAcrossRelaunch() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            var store = try Store.open(.directory(folder))
            let marked = try await store.marks.advance(table: "tasks")
            let cleared = try await store.clearAll()
            // A request's tick, stored only as the mark of the list it fetched.
            let fetched = store.marks.nextTick()
            try await store.lists(of: "user-1").save(
                StoredList(key: "k", table: "tasks", rows: [["id": 1]], fetchedAt: Date(), mark: fetched))
            let logged = store.marks.nextTick()
            try await store.replayLog.append(sampleWrite(table: "notes"), tick: logged)
            await store.close()

            store = try Store.open(.directory(folder))
            let after = store.marks.nextTick()
            #expect(after > max(marked, cleared, fetched, logged))
            await store.close()

            // Once more with only the list's mark above the others.
            store = try Store.open(.directory(folder))
            let request = store.marks.nextTick() + 10
            try await store.lists.save(
                StoredList(key: "k2", table: "tasks", rows: [], fetchedAt: Date(), mark: request))
            await store.close()
            store = try Store.open(.directory(folder))
            #expect(store.marks.nextTick() > request)
            await store.close()
        }
    }
}
