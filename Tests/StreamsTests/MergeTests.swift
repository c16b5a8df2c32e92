import OfflineEngineTesting
import Streams
import Testing

@Suite struct MergeTests {
    @Test func deliversEveryElementKeepingEachUpstreamsOrder() async throws {
        let received = try await withTimeout {
            var received: [Int] = []
            for try await value in merge(ScriptedSequence([1, 2, 3]), ScriptedSequence([10, 20, 30, 40])) {
                received.append(value)
            }
            return received
        }
        #expect(received.sorted() == [1, 2, 3, 10, 20, 30, 40])
        #expect(received.filter { $0 < 10 } == [1, 2, 3])
        #expect(received.filter { $0 >= 10 } == [10, 20, 30, 40])
    }

    @Test func mergesThreeAndManyUpstreams() async throws {
        let (three, many) = try await withTimeout {
            var three: [Int] = []
            let merged = merge(ScriptedSequence([1]), ScriptedSequence([2]), ScriptedSequence([3]))
            for try await value in merged {
                three.append(value)
            }
            var many: [Int] = []
            for try await value in merge((0..<8).map { ScriptedSequence([$0, $0 + 100]) }) {
                many.append(value)
            }
            return (three, many)
        }
        #expect(three.sorted() == [1, 2, 3])
        #expect(many.sorted() == (0..<8).flatMap { [$0, $0 + 100] }.sorted())
    }

    @Test func emptyArrayFinishesImmediately() async throws {
        var iterator = merge([ScriptedSequence<Int>]()).makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test func finishesOnlyWhenAllUpstreamsFinished() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            var received: [Int] = []
            for try await value in merge(ScriptedSequence([1]), stream) {
                received.append(value)
                if value == 1 {
                    continuation.yield(2)
                } else {
                    continuation.finish()
                }
            }
            return received
        }
        let received = try await withTimeout { try await consumer.value }
        #expect(received.sorted() == [1, 2])
    }

    @Test func firstErrorIsThrownAndCancelsTheOthers() async throws {
        let live = LiveCounter()
        let failing = ScriptedSequence([1], end: .fail(TestError(code: 9)), live: live)
        let hanging = ScriptedSequence([100], end: .hang, live: live)
        try await withTimeout {
            var received: [Int] = []
            do {
                for try await value in merge(failing, hanging) {
                    received.append(value)
                }
                Issue.record("expected an error")
            } catch {
                #expect(error as? TestError == TestError(code: 9))
            }
            #expect(received.contains(1))
            await live.waitUntilZero()
        }
    }

    @Test func cancellingTheConsumerLeavesNoUpstreamAlive() async throws {
        let live = LiveCounter()
        let first = ScriptedSequence([1, 2], end: .hang, live: live)
        let second = ScriptedSequence([3], end: .hang, live: live)
        let received = Countdown(3)
        let consumer = Task {
            var count = 0
            for try await _ in merge(first, second) {
                count += 1
                received.arrive()
            }
            return count
        }
        try await withTimeout {
            await received.wait()
            #expect(live.count == 2)
            consumer.cancel()
            let count = try await consumer.value
            #expect(count == 3)
            await live.waitUntilZero()
        }
        #expect(live.total == 2)
    }

    @Test func droppingTheIteratorCancelsTheUpstreams() async throws {
        let live = LiveCounter()
        let first = ScriptedSequence([1], end: .hang, live: live)
        let second = ScriptedSequence([2], end: .hang, live: live)
        try await withTimeout {
            do {
                var iterator = merge(first, second).makeAsyncIterator()
                let value = try await iterator.next()
                #expect(value == 1 || value == 2)
            }
            await live.waitUntilZero()
        }
        #expect(live.total == 2)
    }

    @Test func nothingIsPulledBeforeTheFirstNext() async throws {
        let live = LiveCounter()
        let first = ScriptedSequence([Int](), end: .count, live: live)
        var iterator = merge(first, ScriptedSequence([Int](), end: .count, live: live)).makeAsyncIterator()
        for _ in 0..<100 {
            await Task.yield()
        }
        #expect(live.total == 0)
        #expect(first.pulled.value == 0)
        _ = try await iterator.next()
        #expect(live.total == 2)
    }

    @Test func buffersAtMostOneElementPerUpstream() async throws {
        let first = ScriptedSequence([Int](), end: .count)
        let second = ScriptedSequence([Int](), end: .count)
        try await withTimeout(manyHopsLimit) {
            var iterator = merge(first, second).makeAsyncIterator()
            var consumed = 0
            // 200 rounds show the bound; each round yields to every runnable task in the process,
            // so under a full run's load 2,000 took as long as the timeout.
            for _ in 0..<200 {
                _ = try await iterator.next()
                consumed += 1
                // Give never-suspending upstreams every chance to run ahead of the consumer.
                for _ in 0..<3 {
                    await Task.yield()
                }
                let pulled = first.pulled.value + second.pulled.value
                #expect(pulled <= consumed + 2, "pulled \(pulled) after consuming \(consumed)")
                if pulled > consumed + 2 {
                    return
                }
            }
            #expect(first.pulled.value > 0 && second.pulled.value > 0)
        }
    }
}
