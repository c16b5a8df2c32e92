import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store rejected writes", .timeLimit(.minutes(10)))
struct StoreRejectedTests {
    @Test("a rejected write leaves the queue and stays, with the server's words, until dismissed")
    func persistsUntilDismissed() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let refused = sampleWrite()
            let kept = sampleWrite()
            let details = RejectionDetails(
                status: 403, code: "42501", message: "new row violates row-level security policy",
                details: "detail text", hint: "hint text")
            let when = Date(timeIntervalSince1970: 1_750_000_000)
            var store = try Store.open(.directory(folder))
            try await store.queue.enqueue(refused)
            try await store.queue.enqueue(kept)
            #expect(try await store.rejected.add(refused.id, details: details, at: when))
            #expect(try await store.rejected.add(UUID(), details: details) == false)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(try await store.queue.all().map(\.mutation.id) == [kept.id])
            let rejected = try await store.rejected.all()
            #expect(rejected.map(\.mutation.id) == [refused.id])
            #expect(rejected.first?.details == details)
            #expect(rejected.first?.rejectedAt == when)
            #expect(rejected.first?.mutation.rows == refused.rows)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(try await store.rejected.all().count == 1)
            #expect(try await store.rejected.dismiss(refused.id))
            #expect(try await store.rejected.dismiss(refused.id) == false)
            await store.close()

            store = try Store.open(.directory(folder))
            #expect(try await store.rejected.all().isEmpty)
            await store.close()
        }
    }
}
