import Foundation
import Testing

@testable import OfflineEngine

/// A lone append runs as its statement's own transaction (no `BEGIN`/`COMMIT` around it): what
/// the disk refuses must leave nothing behind, in the file or in the store's index of ids.
@Suite("Store lone appends", .timeLimit(.minutes(10)))
struct StoreLoneAppendTests {
    @Test(
        "an append the disk refuses is not queued, the ones before it are, and appends go on once there is room"
    )
    func refusedAppendLeavesNothing() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
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
