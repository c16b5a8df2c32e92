import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct CombineLatestTests {
    @Test func waitsForEverySideThenCombinesEachNewElement() async throws {
        let (letters, continuation) = AsyncStream.makeStream(of: String.self)
        let numbers = ScriptedSequence([1, 2, 3])
        let consumer = Task {
            var received: [String] = []
            for try await (number, letter) in combineLatest(numbers, letters) {
                received.append("\(number)\(letter)")
                if number == 3 {
                    continuation.finish()
                }
            }
            return received
        }
        let received = try await withTimeout {
            // The numbers side parks after one element: it may not run ahead while letters is silent.
            while numbers.pulled.value < 1 {
                await Task.yield()
            }
            #expect(numbers.pulled.value == 1)
            continuation.yield("x")
            return try await consumer.value
        }
        #expect(received == ["1x", "2x", "3x"])
    }

    @Test func everyElementAppearsAndTheLastCombinationIsTheLatest() async throws {
        let received = try await withTimeout {
            var received: [[Int]] = []
            let sides = [
                ScriptedSequence([1, 2, 3, 4]), ScriptedSequence([10, 20]), ScriptedSequence([100]),
            ]
            for try await values in combineLatest(sides) {
                received.append(values)
            }
            return received
        }
        #expect(received.last == [4, 20, 100])
        #expect(Set(received.map { $0[0] }) == [1, 2, 3, 4])
        #expect(Set(received.map { $0[1] }) == [10, 20])
        #expect(received.map { $0[0] } == received.map { $0[0] }.sorted())
    }

    @Test func combinesThreeSidesIntoTuples() async throws {
        let received = try await withTimeout {
            var received: [String] = []
            for try await (a, b, c) in combineLatest(
                ScriptedSequence([1]), ScriptedSequence(["b"]), ScriptedSequence([true])
            ) {
                received.append("\(a)\(b)\(c)")
            }
            return received
        }
        #expect(received == ["1btrue"])
    }

    @Test func sideFinishingWithoutElementsFinishesAtOnceAndCancelsTheRest() async throws {
        let live = LiveCounter()
        let hanging = ScriptedSequence([1, 2], end: .hang, live: live)
        let empty = ScriptedSequence([Int](), live: live)
        try await withTimeout {
            var received: [(Int, Int)] = []
            for try await pair in combineLatest(hanging, empty) {
                received.append(pair)
            }
            #expect(received.isEmpty)
            await live.waitUntilZero()
        }
        #expect(live.total == 2)
    }

    @Test func emptyArrayFinishesImmediately() async throws {
        var iterator = combineLatest([ScriptedSequence<Int>]()).makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test func firstErrorIsThrownAndCancelsTheOthers() async throws {
        let live = LiveCounter()
        let failing = ScriptedSequence([1], end: .fail(TestError(code: 4)), live: live)
        let hanging = ScriptedSequence([5], end: .hang, live: live)
        try await withTimeout {
            do {
                for try await _ in combineLatest(failing, hanging) {}
                Issue.record("expected an error")
            } catch {
                #expect(error as? TestError == TestError(code: 4))
            }
            await live.waitUntilZero()
        }
    }

    @Test func pullsAtMostOneElementAheadPerSide() async throws {
        // A side may pull element n only once a combination carrying n - 1 was received: each
        // pull checks that, so no yields are needed to give a side the chance to run ahead.
        let first = AheadCheckedSource(id: 0, ahead: 0)
        let second = AheadCheckedSource(id: 1, ahead: 0)
        try await withTimeout {
            var iterator = combineLatest(first, second).makeAsyncIterator()
            for consumed in 1...100 {
                let (a, b) = try #require(try await iterator.next())
                first.consumed(a)
                second.consumed(b)
                // Each combination consumes at least one new element; each side holds at most one more.
                let pulled = first.pulled + second.pulled
                #expect(pulled <= 2 * consumed + 2, "pulled \(pulled) after \(consumed) combinations")
            }
        }
        #expect(first.violations == 0 && second.violations == 0)
    }
}
