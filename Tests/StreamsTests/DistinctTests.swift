import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct DistinctTests {
    @Test func dropsConsecutiveDuplicatesOnly() async throws {
        var received: [Int] = []
        for try await value in ScriptedSequence([1, 1, 2, 2, 2, 3, 1, 1]).distinct() {
            received.append(value)
        }
        #expect(received == [1, 2, 3, 1])
    }

    @Test func firstElementAlwaysPasses() async throws {
        var iterator = ScriptedSequence([5]).distinct().makeAsyncIterator()
        #expect(try await iterator.next() == 5)
        #expect(try await iterator.next() == nil)
    }

    @Test func distinctByUsesThePredicateAgainstTheLastEmitted() async throws {
        var received: [Int] = []
        let values = ScriptedSequence([10, 11, 12, 25, 31, 32])
        for try await value in values.distinct(by: { $0 / 10 == $1 / 10 }) {
            received.append(value)
        }
        #expect(received == [10, 25, 31])
    }

    @Test func rethrowsTheBaseTypedError() async {
        let failing = ScriptedSequence([1, 1, 2], end: .fail(TestError(code: 3)))
        await expectElements([1, 2], thenFailure: TestError(code: 3), reading: failing.distinct())
    }

    @Test func composesWithMapSync() async throws {
        var received: [Int] = []
        for try await value in ScriptedSequence([1, 2, 3, 4, 5]).mapSync({ $0 / 2 }).distinct() {
            received.append(value)
        }
        #expect(received == [0, 1, 2])
    }

    @Test func endsWhenTheConsumerIsCancelled() async throws {
        let live = LiveCounter()
        let upstream = ScriptedSequence([1, 1], end: .hang, live: live)
        try await withTimeout {
            let consumer = await reader(of: upstream.distinct(), after: 1)
            consumer.cancel()
            let received = try await consumer.value
            #expect(received == [1])
            await live.waitUntilZero()
        }
    }
}
