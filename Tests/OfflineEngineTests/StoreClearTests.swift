import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store clear leaves nothing readable", .timeLimit(.minutes(10)))
struct StoreClearTests {
    static let secrets = ["token-SECRET-abc123", "cached-SECRET-def456", "queued-SECRET-ghi789"]

    @Test("after clearAll no cleared value is readable in the store's files and the log is empty")
    func clearedValuesLeaveTheFiles() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let store = try Store.open(.directory(folder))
            let rows: [Row] = (0..<200).map { index in
                ["id": .number(JSONNumber(index)), "title": .string("\(Self.secrets[1]) \(index)")]
            }
            try await store.lists.save(StoredList(key: "k", table: "tasks", rows: rows, fetchedAt: Date()))
            try await store.queue.enqueue(sampleWrite(title: Self.secrets[2]))
            let rejected = sampleWrite(title: Self.secrets[2])
            try await store.queue.enqueue(rejected)
            try await store.rejected.add(rejected.id, details: RejectionDetails(status: 400, message: "bad"))
            try await store.replayLog.append(sampleWrite(title: Self.secrets[2]), tick: 1)
            try await store.account.setSession(AuthSession(accessToken: Self.secrets[0], userID: "user-1"))
            for secret in Self.secrets {
                #expect(try !filesContaining(secret, in: folder).isEmpty, "\(secret) is on disk before")
            }

            try await store.clearAll()
            for secret in Self.secrets {
                #expect(try filesContaining(secret, in: folder) == [], "\(secret) is gone")
            }
            let log = folder.appendingPathComponent(Storage.fileName + "-wal")
            #expect(try Data(contentsOf: log).isEmpty)
            try await store.queue.enqueue(sampleWrite())
            #expect(try await store.queue.count() == 1)
            await store.close()
        }
    }

    @Test("the store's connection overwrites deleted content (secure delete)")
    func secureDeleteIsOn() async throws {
        let store = try Store.open(.inMemory)
        let value = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query("PRAGMA secure_delete") { row in row.integer(0) }.first
        }
        #expect(value == 1)
        await store.close()
    }
}
