import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct MapSyncTests {
    @Test func transformsEveryElementInOrder() async throws {
        var received: [String] = []
        for try await value in ScriptedSequence([1, 2, 3]).mapSync({ "v\($0)" }) {
            received.append(value)
        }
        #expect(received == ["v1", "v2", "v3"])
    }

    @Test func finishesWithTheBase() async throws {
        var iterator = ScriptedSequence([Int]()).mapSync { $0 * 2 }.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func rethrowsTheBaseTypedError() async {
        let failing = ScriptedSequence([1, 2], end: .fail(TestError(code: 7)))
        await expectElements([2, 3], thenFailure: TestError(code: 7), reading: failing.mapSync { $0 + 1 })
    }

    @Test func nonThrowingBaseNeedsNoTry() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(4)
        continuation.finish()
        var received: [Int] = []
        for await value in stream.mapSync({ $0 * 10 }) {
            received.append(value)
        }
        #expect(received == [40])
    }

    @MainActor
    @Test func forwardsTheConsumersIsolationToTheBase() async {
        var sawMainActor: [Bool] = []
        for await onMain in IsolationProbe().mapSync({ $0 }) {
            sawMainActor.append(onMain)
        }
        #expect(sawMainActor == [true, true, true])
    }

    @Test func endsWhenTheConsumerIsCancelled() async throws {
        let live = LiveCounter()
        let upstream = ScriptedSequence([1], end: .hang, live: live)
        try await withTimeout {
            let consumer = await reader(of: upstream.mapSync({ $0 }), after: 1)
            consumer.cancel()
            let received = try await consumer.value
            #expect(received == [1])
            await live.waitUntilZero()
        }
    }
}
