import Foundation
import Testing

@testable import OfflineEngine

/// `WriteQueue.oldest(visibleTo:)`, which the sync status reads on every publish: the answer
/// it keeps between scans must be the one a scan would give.
@Suite("The oldest write a user sees")
struct WriteQueueOldestTests {
    private static func write(_ owner: String?, at seconds: Double) -> QueueEntry {
        QueueEntry(
            Mutation(
                ownerID: owner, table: "tasks", operation: .insert, rows: [["id": 1]],
                createdAt: Date(timeIntervalSince1970: seconds)),
            interrupted: false)
    }

    @Test("behind other users' writes, as writes join, leave and change hands")
    func keptAnswerMatchesAScan() {
        var queue = WriteQueue()
        #expect(queue.oldest(visibleTo: "B") == nil)
        let a = Self.write("A", at: 1)
        queue.append(a)
        #expect(queue.oldest(visibleTo: "B") == nil)
        let b1 = Self.write("B", at: 2)
        let b2 = Self.write("B", at: 3)
        queue.append(b1)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 2))
        queue.append(b2)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 2))
        queue.remove(b1.mutation.id)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 3))
        #expect(queue.oldest(visibleTo: "A") == Date(timeIntervalSince1970: 1))
        let ownerless = Self.write(nil, at: 4)
        queue.append(ownerless)
        queue.remove(a.mutation.id)
        #expect(queue.oldest(visibleTo: "A") == Date(timeIntervalSince1970: 4))
        _ = queue.claimOwnerless(for: "B")
        #expect(queue.oldest(visibleTo: "A") == nil)
        #expect(queue.oldest(visibleTo: "B") == Date(timeIntervalSince1970: 3))
    }
}
