import OfflineEngineTesting
import Streams
import Testing

/// Cancellation of the operators that run a task per upstream: `merge` and `combineLatest`.
@Suite(.timeLimit(.minutes(10))) struct CombinerCancellationTests {
    @Test(arguments: Combiner.allCases)
    func cancellingTheConsumerLeavesNoUpstreamAlive(combiner: Combiner) async throws {
        let live = LiveCounter()
        let first = ScriptedSequence([1, 2], end: .hang, live: live)
        let second = ScriptedSequence([3], end: .hang, live: live)
        // merge passes all three elements; combineLatest combines 1 or 2 with 3, then 2 with 3.
        let expected = combiner == .merge ? 3 : 2
        let received = Countdown(expected)
        let consumer = Task {
            try await combiner.count(first, second) { received.arrive() }
        }
        try await withTimeout {
            await received.wait()
            #expect(live.count == 2)
            consumer.cancel()
            let count = try await consumer.value
            #expect(count == expected)
            await live.waitUntilZero()
        }
        #expect(live.total == 2)
    }

    @Test(arguments: Combiner.allCases)
    func droppingTheIteratorCancelsTheUpstreams(combiner: Combiner) async throws {
        let live = LiveCounter()
        let first = ScriptedSequence([1], end: .hang, live: live)
        let second = ScriptedSequence([2], end: .hang, live: live)
        try await withTimeout {
            let values = try await combiner.firstElement(first, second)
            switch combiner {
            case .merge:
                #expect(values == [1] || values == [2])
            case .combineLatest:
                #expect(values == [1, 2])
            }
            await live.waitUntilZero()
        }
        #expect(live.total == 2)
    }
}
