import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store keeps data across a restart", .timeLimit(.minutes(10)))
struct StorePersistenceTests {
    @Test("a cached list and the queue read back after reopening, numbers exact")
    func listAndQueueSurviveReopen() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let rows: [Row] = [
                [
                    "id": .number(JSONNumber(text: "9007199254740993")!),
                    "price": .number(JSONNumber(text: "1.50")!),
                ],
                ["id": 2, "price": .number(JSONNumber(text: "0.10")!), "note": nil, "tags": ["a", "b"]],
            ]
            let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000.25)
            let write = sampleWrite()
            var store = try Store.open(.directory(folder))
            try await store.lists.save(
                StoredList(
                    key: "public.tasks?select=*", table: "tasks", rows: rows, fetchedAt: fetchedAt, mark: 7))
            try await store.queue.enqueue(write)
            await store.close()

            store = try await Store.openInBackground(.directory(folder))
            let list = try #require(try await store.lists.list(key: "public.tasks?select=*"))
            #expect(list.rows == rows)
            #expect(JSONText.string(list.rows[0].json) == #"{"id":9007199254740993,"price":1.50}"#)
            #expect(list.fetchedAt == fetchedAt)
            #expect(list.mark == 7)
            #expect(list.isStale == false)
            #expect(list.table == "tasks" && list.schema == nil)
            let queued = try await store.queue.all()
            #expect(queued.map(\.mutation.id) == [write.id])
            #expect(queued.first?.mutation.rows == write.rows)
            #expect(queued.first?.mutation.ownerID == "user-1")
            #expect(queued.first?.isInFlight == false)
            #expect(JSONText.string(queued[0].mutation.rows[0]["big"]!) == "9007199254740993")
            await store.close()
        }
    }

    @Test("lists of a table are found by table and marked stale together")
    func listsByTable() async throws {
        let store = try Store.open(.inMemory)
        let now = Date()
        try await store.lists.save([
            StoredList(key: "a", table: "tasks", rows: [["id": 1]], fetchedAt: now),
            StoredList(key: "b", table: "tasks", rows: [], fetchedAt: now),
            StoredList(key: "c", table: "tags", rows: [["name": "x"]], fetchedAt: now),
            StoredList(key: "d", schema: "other", table: "tasks", rows: [], fetchedAt: now),
        ])
        #expect(try await store.lists.all(table: "tasks").map(\.key) == ["a", "b"])
        #expect(try await store.lists.all(table: "tasks", schema: "other").map(\.key) == ["d"])
        #expect(try await store.lists.markStale(table: "tasks") == 2)
        #expect(try await store.lists.all(table: "tasks").allSatisfy(\.isStale))
        #expect(try await store.lists.list(key: "c")?.isStale == false)
        #expect(try await store.lists.remove(key: "c"))
        #expect(try await store.lists.list(key: "c") == nil)
        await store.close()
    }

    @Test("change marks and ticks keep growing across a restart")
    func marksMonotonic() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            var store = try Store.open(.directory(folder))
            let first = store.marks.nextTick()
            let marked = try await store.marks.advance(table: "tasks")
            #expect(marked > first)
            #expect(try await store.marks.mark(table: "tasks") == marked)
            #expect(try await store.marks.mark(table: "never") == 0)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(try await store.marks.mark(table: "tasks") == marked)
            let after = store.marks.nextTick()
            #expect(after > marked)
            #expect(try await store.marks.advance(table: "tasks") > after)
            await store.close()
        }
    }

    @Test("the owner and the session round-trip and can be forgotten")
    func ownerAndSession() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let session = AuthSession(
                accessToken: "token", refreshToken: "refresh", userID: "user-1",
                expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
            var store = try Store.open(.directory(folder))
            #expect(try await store.account.owner() == nil)
            #expect(try await store.account.session() == nil)
            try await store.account.setOwner("user-1")
            try await store.account.setSession(session)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(try await store.account.owner() == "user-1")
            #expect(try await store.account.session() == session)
            try await store.account.setOwner(nil)
            try await store.account.setSession(nil)
            #expect(try await store.account.owner() == nil)
            #expect(try await store.account.session() == nil)
            await store.close()
        }
    }

    @Test("clearAll wipes lists, queue, replay log, rejected writes, session and owner; ticks keep growing")
    func clearAll() async throws {
        let store = try Store.open(.inMemory)
        let queued = sampleWrite()
        let rejected = sampleWrite()
        try await store.lists.save(StoredList(key: "k", table: "tasks", rows: [["id": 1]], fetchedAt: Date()))
        try await store.queue.enqueue(queued)
        try await store.queue.enqueue(rejected)
        try await store.rejected.add(rejected.id, details: RejectionDetails(status: 400, message: "bad"))
        try await store.replayLog.append(sampleWrite(), tick: 1)
        try await store.account.setOwner("user-1")
        try await store.account.setSession(AuthSession(accessToken: "t", userID: "user-1"))
        let tick = store.marks.nextTick()

        try await store.clearAll()
        #expect(try await store.lists.list(key: "k") == nil)
        #expect(try await store.queue.all().isEmpty)
        #expect(try await store.rejected.all().isEmpty)
        #expect(try await store.replayLog.writes(table: "tasks").isEmpty)
        #expect(try await store.account.owner() == nil)
        #expect(try await store.account.session() == nil)
        #expect(store.marks.nextTick() > tick)
        await store.close()
    }

    @Test("opening in the background reports the same typed errors")
    func backgroundOpenErrors() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { base in
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            let plainFile = base.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: plainFile)
            await #expect(throws: StoreError.unreadable) {
                try await Store.openInBackground(.directory(plainFile))
            }
        }
    }

    @Test("a closed store refuses work with a closed error")
    func closedStore() async throws {
        let store = try Store.open(.inMemory)
        await store.close()
        await #expect(throws: StoreError.closed) { try await store.queue.enqueue(sampleWrite()) }
        await store.close()
    }

    /// A lone append runs as its statement's own transaction (no `BEGIN`/`COMMIT` around it):
    /// what the disk refuses must leave nothing behind, in the file or in the index of ids.
    @Test("a lone append the disk refuses leaves nothing, and appends go on once there is room")
    func refusedAppendLeavesNothing() async throws {
        let folder = temporaryStoreFolder()
        try await withStoreFolder(folder) { folder in
            let store = try Store.open(.directory(folder))
            let pages = try await store.perform(writes: false) { connection throws(StoreError) in
                try connection.query("PRAGMA page_count") { $0.integer(0) }.first ?? 0
            }
            // The file may grow by a few pages only: the disk fills up after some appends.
            try await Self.limitPages(of: store, to: pages + 3)
            var appended: [UUID] = []
            var refused: Mutation?
            for index in 0..<200 {
                let write = sampleWrite(title: String(repeating: "x", count: 900) + "\(index)")
                do {
                    try await store.queue.enqueue(write)
                    appended.append(write.id)
                } catch {
                    #expect(error as? StoreError == .full)
                    refused = write
                    break
                }
            }
            let refusedWrite = try #require(refused)
            #expect(!appended.isEmpty)
            #expect(try await store.queue.all().map(\.mutation.id) == appended)
            // The refused write is not known by id: neither removing it nor marking it finds it.
            #expect(try await store.queue.remove(refusedWrite.id) == false)
            try await Self.limitPages(of: store, to: 1_000_000)
            try await store.queue.enqueue(refusedWrite)
            #expect(try await store.queue.all().map(\.mutation.id) == appended + [refusedWrite.id])
            await store.close()
            let reopened = try Store.open(.directory(folder))
            #expect(try await reopened.queue.all().map(\.mutation.id) == appended + [refusedWrite.id])
            await reopened.close()
        }
    }

    private static func limitPages(of store: Store, to count: Int64) async throws {
        try await store.perform(writes: false) { connection throws(StoreError) in
            _ = try connection.query("PRAGMA max_page_count = \(count)") { $0.integer(0) }
        }
    }
}
