import OfflineEngineTesting
import Synchronization
import Testing

@testable import Streams

@Suite(
    "combineLatest of two state holders, waking on the changes of the first that matter",
    .timeLimit(.minutes(10)))
struct CombineLatestStatesFilterTests {
    @Test(
        "a change of the first that does not matter leaves the reader waiting; one that does wakes it with the newest values"
    )
    func onlyChangesThatMatterWake() async throws {
        let asked = Mutex<[Int]>([])
        let (numbers, _, reading) = try await waitingCombinedReader { numbers, words in
            combineLatest(numbers, words) { value in
                asked.withLock { $0.append(value) }
                return value % 10 == 0
            }
        }
        numbers.send(1)
        numbers.send(2)
        // Still waiting: neither change mattered, so its request stands.
        #expect(numbers.watcherCount == 1)
        numbers.send(10)
        let woken = try await withTimeout { await reading.value }
        #expect(woken?.0 == 10 && woken?.1 == "a")
        #expect(asked.withLock { $0 } == [1, 2, 10])
    }

    @Test("skipped changes are read when the second holder wakes the reader")
    func skippedChangesAreReadLater() async throws {
        let (numbers, words, reading) = try await waitingCombinedReader {
            combineLatest($0, $1, firstMatters: { _ in false })
        }
        numbers.send(7)
        words.send("b")
        let woken = try await withTimeout { await reading.value }
        #expect(woken?.0 == 7 && woken?.1 == "b")
    }

    @Test("a change made between two reads wakes the reader whatever the filter says")
    func changeBeforeWatchingWakes() async {
        let (numbers, words) = numbersAndWords()
        var reader = await readerPastFirst(combineLatest(numbers, words, firstMatters: { _ in false }))
        numbers.send(3)
        let next = await reader.next()
        #expect(next?.0 == 3)
    }

    @Test("finishing both holders ends a reader the filter kept waiting, and releases its requests")
    func finishingWakes() async throws {
        let (numbers, words, reading) = try await waitingCombinedReader {
            combineLatest($0, $1, firstMatters: { _ in false })
        }
        numbers.finish()
        words.finish()
        let ended = try await withTimeout { await reading.value }
        #expect(ended == nil)
        #expect(numbers.watcherCount == 0 && words.watcherCount == 0)
    }
}
