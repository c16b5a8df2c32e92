import Foundation
import Testing

@testable import OfflineEngine

/// Records the order of its calls to the store, with no suspension between recording and calling.
private actor RecordingWriter {
    let store: Store
    var order: [UUID] = []

    init(store: Store) { self.store = store }

    func append(_ mutation: Mutation) async throws {
        order.append(mutation.id)
        try await store.queue.enqueue(mutation)
    }
}

@Suite("Store queue order", .timeLimit(.minutes(10)))
struct StoreQueueOrderTests {
    @Test("concurrent writers keep the queue in call order")
    func callOrderUnderConcurrency() async throws {
        let store = try Store.open(.inMemory)
        let writer = RecordingWriter(store: store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask { try await writer.append(sampleWrite(title: "write \(index)")) }
            }
            try await group.waitForAll()
        }
        let queued = try await store.queue.all()
        #expect(queued.map(\.mutation.id) == (await writer.order))
        #expect(queued.map(\.sequence) == queued.map(\.sequence).sorted())
        await store.close()
    }

    @Test("each writer's sequence stays in order when many write at once")
    func perWriterOrder() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let store = try Store.open(.directory(folder))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        for index in 0..<50 {
                            try await store.queue.enqueue(sampleWrite(owner: "w\(writer)", title: "\(index)"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let queued = try await store.queue.all()
            #expect(queued.count == 800)
            for writer in 0..<16 {
                let titles = try await store.queue.owned(by: "w\(writer)").map {
                    $0.mutation.rows[0]["title"]?.stringValue
                }
                #expect(titles == (0..<50).map { "\($0)" })
            }
            await store.close()
        }
    }

    @Test("a write sent but not answered is reported at the next open")
    func inFlightReportedAtReopen() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let writes = [sampleWrite(), sampleWrite(), sampleWrite()]
            var store = try Store.open(.directory(folder))
            for write in writes { try await store.queue.enqueue(write) }
            #expect(try await store.queue.markInFlight(writes[1].id))
            #expect(try await store.queue.recordAttempt(writes[1].id))
            #expect(try await store.queue.recordAttempt(writes[1].id))
            #expect(try await store.queue.markInFlight(UUID()) == false)
            #expect(store.interruptedWrites.isEmpty)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(store.interruptedWrites == [writes[1].id])
            let queued = try await store.queue.all()
            #expect(queued.map(\.isInFlight) == [false, true, false])
            #expect(queued[1].mutation.attempts == 2)
            #expect(try await store.queue.clearInFlight(writes[1].id))
            #expect(try await store.queue.remove(writes[0].id))
            #expect(try await store.queue.all().map(\.mutation.id) == [writes[1].id, writes[2].id])
            #expect(try await store.queue.count() == 2)
            await store.close()
        }
    }

    @Test("writes made while signed out are claimed by the next user")
    func claimUnowned() async throws {
        let store = try Store.open(.inMemory)
        try await store.queue.enqueue(sampleWrite(owner: nil))
        try await store.queue.enqueue(sampleWrite(owner: "other"))
        #expect(try await store.queue.claimUnownedWrites(for: "user-2") == 1)
        #expect(try await store.queue.owned(by: nil).isEmpty)
        #expect(try await store.queue.owned(by: "user-2").first?.mutation.ownerID == "user-2")
        await store.close()
    }

    @Test("the same write queued twice is refused, and the queue still finds its writes after")
    func duplicateRefused() async throws {
        let store = try Store.open(.inMemory)
        let (write, other) = (sampleWrite(), sampleWrite())
        try await store.queue.enqueue(write)
        await #expect(throws: StoreError.self) { try await store.queue.enqueue(write) }
        try await store.queue.enqueue(other)
        #expect(try await store.queue.all().map(\.mutation.id) == [write.id, other.id])
        #expect(try await store.queue.markInFlight(other.id))
        #expect(try await store.queue.remove(write.id))
        #expect(try await store.queue.remove(write.id) == false)
        #expect(try await store.queue.all().map(\.isInFlight) == [true])
        await store.close()
    }
}
