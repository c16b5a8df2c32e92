import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct ScanTests {
    @Test func emitsTheRunningStateForEachElement() async throws {
        let running = ScriptedSequence([1, 2, 3, 4]).scan(0) { sum, next in
            sum += next
            return sum
        }
        var totals: [Int] = []
        for try await total in running {
            totals.append(total)
        }
        #expect(totals == [1, 3, 6, 10])
    }

    @Test func outputCanDifferFromTheState() async throws {
        let described = ScriptedSequence(["a", "b", "a"]).scan([String: Int]()) { counts, word in
            counts[word, default: 0] += 1
            return "\(word)#\(counts[word] ?? 0)"
        }
        var received: [String] = []
        for try await value in described {
            received.append(value)
        }
        #expect(received == ["a#1", "b#1", "a#2"])
    }

    @Test func eachIteratorStartsFromTheInitialState() async throws {
        let totals = ScriptedSequence([5, 5]).scan(100) { sum, next in
            sum += next
            return sum
        }
        for _ in 0..<2 {
            var iterator = totals.makeAsyncIterator()
            #expect(try await iterator.next() == 105)
            #expect(try await iterator.next() == 110)
        }
    }

    @Test func finishesWithTheBase() async throws {
        var iterator = ScriptedSequence([Int]()).scan(0) { sum, next in sum + next }.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func rethrowsTheBaseTypedErrorAfterTheOutputs() async {
        let counts = ScriptedSequence([1, 2], end: .fail(TestError(code: 4))).scan(0) { count, _ in
            count += 1
            return count
        }
        await expectElements([1, 2], thenFailure: TestError(code: 4), reading: counts)
    }

    @Test func nonThrowingBaseNeedsNoTryAndIsSendable() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(2)
        continuation.yield(3)
        continuation.finish()
        let products = stream.scan(1) { product, next in
            product *= next
            return product
        }
        let sendable: any Sendable = products
        #expect(sendable is AsyncScanSequence<AsyncStream<Int>, Int, Int>)
        var received: [Int] = []
        for await value in products {
            received.append(value)
        }
        #expect(received == [2, 6])
    }

    @MainActor
    @Test func forwardsTheConsumersIsolationToTheBase() async {
        let probed = IsolationProbe().scan(0) { count, onMain in
            count += 1
            return onMain && count > 0
        }
        var sawMainActor: [Bool] = []
        for await onMain in probed {
            sawMainActor.append(onMain)
        }
        #expect(sawMainActor == [true, true, true])
    }

    @Test func endsWhenTheConsumerIsCancelled() async throws {
        let live = LiveCounter()
        let sums = ScriptedSequence([1], end: .hang, live: live).scan(10) { sum, next in
            sum += next
            return sum
        }
        try await withTimeout {
            let consumer = await reader(of: sums, after: 1)
            consumer.cancel()
            let received = try await consumer.value
            #expect(received == [11])
            await live.waitUntilZero()
        }
    }
}
