import Foundation
import OfflineEngineTesting
import Streams
import Testing

@testable import OfflineEngine

/// `outcome(of:)` waits on its write's own departure from the queue (`WriteDepartures`), not on
/// every change of the queue.
@Suite("A write's departure from the queue wakes only its own waiters", .timeLimit(.minutes(10)))
struct WriteDeparturesTests {
    @Test("a waiter wakes when its write leaves, not when another does")
    func wakesOnItsOwnWrite() async throws {
        let departures = WriteDepartures()
        let (mine, other) = (UUID(), UUID())
        let woken = StateBroadcast<Bool, Never>(false)
        let asked = Signal()
        let askedOnce = asked.subscribe()
        try await withTimeout(30) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await departures.wait(for: mine) {
                        asked.fire()
                        return true
                    }
                    woken.send(true)
                }
                for await _ in askedOnce { break }
                departures.left([other])
                await Task.yield()
                #expect(woken.value == false)
                departures.left([mine])
                await group.waitForAll()
            }
        }
        #expect(woken.value)
    }

    @Test("a departure between the wait's start and its look at the queue is not missed")
    func departureBeforeTheLookIsKept() async throws {
        let departures = WriteDepartures()
        let id = UUID()
        try await withTimeout(30) {
            // The write leaves while the waiter asks whether it is queued (the answer, read
            // before the departure, says it still is).
            await departures.wait(for: id) {
                departures.left([id])
                return true
            }
        }
    }

    @Test("a write no longer queued returns at once; finishing ends every wait, and later ones")
    func notQueuedAndFinish() async throws {
        let departures = WriteDepartures()
        try await withTimeout(30) {
            await departures.wait(for: UUID()) { false }
            let id = UUID()
            let asked = Signal()
            let askedOnce = asked.subscribe()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await departures.wait(for: id) {
                        asked.fire()
                        return true
                    }
                }
                for await _ in askedOnce { break }
                departures.finish()
            }
            await departures.wait(for: id) { true }
        }
    }

    @Test("cancelling the waiting task ends its wait")
    func cancellationEndsTheWait() async throws {
        let departures = WriteDepartures()
        try await withTimeout(30) {
            let waiting = Task { await departures.wait(for: UUID()) { true } }
            waiting.cancel()
            await waiting.value
        }
    }
}
