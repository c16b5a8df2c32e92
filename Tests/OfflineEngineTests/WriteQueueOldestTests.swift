import Foundation
import Testing

@testable import OfflineEngine

/// `WriteQueue.oldest(visibleTo:)`, which the sync status reads on every publish: the answer
/// it keeps between scans must be the one a scan would give, among the writes the store holds.
@Suite("The oldest write a user sees", .timeLimit(.minutes(10)))
struct WriteQueueOldestTests {
    private static func write(_ owner: String?, at seconds: Double) -> QueueEntry {
        QueueEntry(
            Mutation(
                ownerID: owner, table: "tasks", operation: .insert, rows: [["id": 1]],
                createdAt: Date(timeIntervalSince1970: seconds)),
            interrupted: false)
    }

    private static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// Appends a write and sees its append committed.
    private static func appendStored(_ entry: QueueEntry, to queue: inout WriteQueue) {
        queue.append(entry)
        _ = queue.update(entry.mutation.id) { $0.life.handle(.stored) }
    }

    @Test("behind other users' writes, as writes join, leave and change hands")
    func keptAnswerMatchesAScan() {
        var queue = WriteQueue()
        #expect(queue.oldest(visibleTo: "B") == nil)
        let a = Self.write("A", at: 1)
        Self.appendStored(a, to: &queue)
        #expect(queue.oldest(visibleTo: "B") == nil)
        let b1 = Self.write("B", at: 2)
        let b2 = Self.write("B", at: 3)
        Self.appendStored(b1, to: &queue)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 2))
        Self.appendStored(b2, to: &queue)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 2))
        queue.remove(b1.mutation.id)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 3))
        #expect(queue.oldest(visibleTo: "A") == Date(timeIntervalSince1970: 1))
        let ownerless = Self.write(nil, at: 4)
        Self.appendStored(ownerless, to: &queue)
        queue.remove(a.mutation.id)
        #expect(queue.oldest(visibleTo: "A") == Date(timeIntervalSince1970: 4))
        _ = queue.claimOwnerless(for: "B")
        #expect(queue.oldest(visibleTo: "A") == nil)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 3))
    }

    @Test(
        "a write whose append is under way is neither counted nor the oldest; stored out of order, the older wins"
    )
    func onlyStoredWritesCount() {
        var queue = WriteQueue()
        let (first, second) = (Self.write("B", at: 1), Self.write("B", at: 2))
        queue.append(first)
        queue.append(second)
        #expect(queue.oldest(visibleTo: "B") == nil)
        #expect(queue.storedCounts.isEmpty && queue.counts == ["B": 2])
        _ = queue.update(second.mutation.id) { $0.life.handle(.stored) }
        #expect(queue.oldest(visibleTo: "B") == Self.date(2))
        _ = queue.update(first.mutation.id) { $0.life.handle(.stored) }
        #expect(queue.oldest(visibleTo: "B") == Self.date(1))
        #expect(queue.storedCounts == ["B": 2])
        // A write whose append failed leaves without ever having been counted.
        let failed = Self.write("B", at: 0.5)
        queue.append(failed)
        _ = queue.update(failed.mutation.id) { $0.life.handle(.storeFailed) }
        queue.remove(failed.mutation.id)
        #expect(queue.storedCounts == ["B": 2] && queue.counts == ["B": 2])
        _ = queue.update(first.mutation.id) { $0.life.handle(.cleared) }
        #expect(queue.storedCounts == ["B": 1] && queue.oldest(visibleTo: "B") == Self.date(2))
    }
}
