import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct MergeTests {
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
        // Element n of an upstream may be pulled only once element n - 1 was received and the
        // consumer asked again. Each pull checks that, so no yields are needed.
        let sources = [AheadCheckedSource(id: 0, ahead: 0), AheadCheckedSource(id: 1, ahead: 0)]
        try await withTimeout {
            var iterator = merge(sources).makeAsyncIterator()
            for consumed in 1...200 {
                let element = try #require(try await iterator.next())
                sources[element.source].consumed(element)
                // Nothing is handed over while the consumer is here: one element per upstream at most.
                let pulled = sources[0].pulled + sources[1].pulled
                #expect(pulled <= consumed + 2, "pulled \(pulled) after consuming \(consumed)")
            }
        }
        #expect(sources.map(\.violations) == [0, 0])
        #expect(sources.allSatisfy { $0.pulled > 0 })
    }
}
