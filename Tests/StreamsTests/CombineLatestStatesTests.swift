import OfflineEngineTesting
import Testing

@testable import Streams

@Suite("combineLatest of two state holders", .timeLimit(.minutes(10)))
struct CombineLatestStatesTests {
    @Test("the first element is both current values; a change of either gives both newest")
    func valuesAreBothNewest() async {
        let numbers = StateBroadcast<Int, Never>(1)
        let words = StateBroadcast<String, Never>("a")
        var reader = combineLatest(numbers, words).makeAsyncIterator()
        let first = await reader.next()
        #expect(first?.0 == 1 && first?.1 == "a")
        numbers.send(2)
        let second = await reader.next()
        #expect(second?.0 == 2 && second?.1 == "a")
        words.send("b")
        let third = await reader.next()
        #expect(third?.0 == 2 && third?.1 == "b")
    }

    @Test("a slow reader skips to the newest combination")
    func slowReaderSkips() async {
        let (numbers, words) = numbersAndWords()
        var reader = await readerPastFirst(combineLatest(numbers, words))
        for value in 1...5 { numbers.send(value) }
        words.send("z")
        let next = await reader.next()
        #expect(next?.0 == 5 && next?.1 == "z")
    }

    @Test(
        "a reader settles only when asked: with settleYields it reads a burst of waiting writers as one combination, without it one per step",
        arguments: [0, 64])
    func settleIsTheCallersChoice(_ yields: Int) async throws {
        let (numbers, words) = numbersAndWords()
        // One thread, jobs in order: the writers' second steps wait behind the reader's wake.
        let combinations = try await withTimeout {
            await withTaskExecutorPreference(OneThreadExecutor()) {
                var reader = combineLatest(numbers, words, settleYields: yields).makeAsyncIterator()
                _ = await reader.next()
                return await withTaskGroup(of: Void.self) { writers in
                    for writer in 1...4 {
                        writers.addTask {
                            numbers.send(writer)
                            await Task.yield()
                            numbers.send(writer * 10)
                        }
                    }
                    var seen: [Int] = []
                    while let (number, _) = await reader.next() {
                        seen.append(number)
                        if number == 40 { break }
                    }
                    return seen
                }
            }
        }
        if yields == 0 {
            #expect(combinations.count > 1, "\(combinations)")
        } else {
            #expect(combinations == [40])
        }
    }

    @Test("a reader waiting for a change is woken by either holder")
    func waitingReaderWakes() async throws {
        let (numbers, words) = numbersAndWords()
        let reading = secondElement(of: combineLatest(numbers, words))
        try await waitUntilWatched(words)
        words.send("b")
        let woken = try await withTimeout { await reading.value }
        #expect(woken?.0 == 0 && woken?.1 == "b")
    }

    @Test("it finishes once both holders have finished, after their final values")
    func finishesWithBoth() async {
        let (numbers, words) = numbersAndWords()
        var reader = await readerPastFirst(combineLatest(numbers, words))
        numbers.send(1)
        numbers.finish()
        let afterFirstEnded = await reader.next()
        #expect(afterFirstEnded?.0 == 1)
        words.send("b")
        let stillGoing = await reader.next()
        #expect(stillGoing?.1 == "b")
        words.finish()
        #expect(await reader.next() == nil)
    }

    @Test("a cancelled reader returns nil and its requests to the holders are released")
    func cancellationReleasesWatchers() async throws {
        let (numbers, words) = numbersAndWords()
        let reading = secondElement(of: combineLatest(numbers, words))
        try await waitUntilWatched(numbers)
        reading.cancel()
        let ended = try await withTimeout { await reading.value }
        #expect(ended == nil)
        #expect(numbers.watcherCount == 0 && words.watcherCount == 0)
    }

    @Test("the operator needs no try and is Sendable")
    func sendable() async {
        let combined = combineLatest(StateBroadcast<Int, Never>(1), StateBroadcast<Int, Never>(2))
        let sum = await Task { () -> Int? in
            for await (first, second) in combined { return first + second }
            return nil
        }.value
        #expect(sum == 3)
    }
}
