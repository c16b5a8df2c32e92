import OfflineEngineTesting
import Streams
import Testing

/// Yields the number of its run (1 for the first iterator made, 2 for the next...), then hangs
/// until cancelled: shows which upstream run a reader is reading.
private struct RunNumbers: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    let live: LiveCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        let token: ScriptedSequence<Int>.Token
        var run: Int?

        mutating func next() async -> Int? {
            if let run {
                self.run = nil
                return run
            }
            await suspendUntilCancelled()
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let token = ScriptedSequence<Int>.Token(live: live)
        return AsyncIterator(token: token, run: live.total)
    }
}

@Suite(.timeLimit(.minutes(10))) struct ShareTests {
    @Test func readersShareOneUpstreamAndANewReaderGetsTheCurrentValue() async throws {
        let live = LiveCounter()
        let source = StateBroadcast<Int, TestError>(0)
        let shared = source.values().counted(by: live).share()
        var first = shared.makeAsyncIterator()
        #expect(shared.readerCount == 1 && !shared.isRunning)
        #expect(try await first.next() == 0)
        #expect(shared.isRunning)
        var second = shared.makeAsyncIterator()
        #expect(try await second.next() == 0)
        source.send(1)
        #expect(try await first.next() == 1)
        #expect(try await second.next() == 1)
        #expect(live.total == 1 && shared.readerCount == 2)
        source.finish()
        #expect(try await first.next() == nil)
        #expect(try await second.next() == nil)
        #expect(try await second.next() == nil)
        #expect(live.count == 0 && shared.readerCount == 0 && !shared.isRunning)
    }

    @Test func slowReaderSkipsToTheNewestValueThenTheEnd() async throws {
        let live = LiveCounter()
        let source = StateBroadcast<Int, Never>(0)
        let shared = source.values().counted(by: live).share()
        var slow = shared.makeAsyncIterator()
        #expect(await slow.next() == 0)
        for value in 1...100 {
            source.send(value)
        }
        source.finish()
        // A fast reader drains the run to its end while the slow one waits.
        var fast = shared.makeAsyncIterator()
        var drained: [Int] = []
        while let value = await fast.next() {
            drained.append(value)
        }
        #expect(drained.last == 100)
        #expect(zip(drained, drained.dropFirst()).allSatisfy { $0 < $1 })
        #expect(await slow.next() == 100)
        #expect(await slow.next() == nil)
        #expect(live.total == 1 && live.count == 0)
    }

    @Test func upstreamErrorReachesEveryReaderAfterTheLastValue() async throws {
        let live = LiveCounter()
        let shared = ScriptedSequence([1, 2], end: .fail(TestError(code: 3)), live: live).share()
        let registered = Countdown(5)
        let outcomes = try await withTimeout {
            await withTaskGroup(of: ([Int], TestError?).self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        var reader = shared.makeAsyncIterator()
                        // Every reader registers before any asks: they all read the same run.
                        registered.arrive()
                        await registered.wait()
                        var received: [Int] = []
                        do throws(TestError) {
                            while let value = try await reader.next() {
                                received.append(value)
                            }
                            return (received, nil)
                        } catch {
                            return (received, error)
                        }
                    }
                }
                var outcomes: [([Int], TestError?)] = []
                for await outcome in group {
                    outcomes.append(outcome)
                }
                return outcomes
            }
        }
        #expect(outcomes.count == 5)
        for (received, error) in outcomes {
            #expect(received.last == 2)
            #expect(error == TestError(code: 3))
        }
        #expect(live.total == 1 && live.count == 0)
    }

    @Test func readerJoiningAnEndedRunGetsItsLastValueThenALaterOneRestarts() async throws {
        let live = LiveCounter()
        let shared = ScriptedSequence([1, 2, 3], live: live).share()
        var first = shared.makeAsyncIterator()
        var lingering = shared.makeAsyncIterator()
        while try await first.next() != nil {}
        // The run ended but `lingering` has not read its end: a new reader joins that run.
        var joining = shared.makeAsyncIterator()
        #expect(try await joining.next() == 3)
        #expect(try await joining.next() == nil)
        #expect(try await lingering.next() == 3)
        #expect(try await lingering.next() == nil)
        #expect(shared.readerCount == 0 && live.total == 1)
        // Everyone has left the ended run: the next reader starts a fresh one.
        var later = shared.makeAsyncIterator()
        var received: [Int] = []
        while let value = try await later.next() {
            received.append(value)
        }
        #expect(received.last == 3)
        #expect(live.total == 2 && live.count == 0)
    }

    @Test func lastCancelledReaderStopsTheUpstreamBeforeItsLoopEnds() async throws {
        let live = LiveCounter()
        let shared = ScriptedSequence([1], end: .hang, live: live).share()
        let started = Countdown(2)
        let readers = (0..<2).map { _ in
            Task {
                var count = 0
                for try await _ in shared {
                    count += 1
                    started.arrive()
                }
                return count
            }
        }
        try await withTimeout {
            await started.wait()
            #expect(shared.readerCount == 2)
            readers[0].cancel()
            let firstCount = try await readers[0].value
            #expect(firstCount == 1)
            #expect(shared.readerCount == 1 && shared.isRunning && live.count == 1)
            readers[1].cancel()
            let secondCount = try await readers[1].value
            #expect(secondCount == 1)
        }
        // No waiting: the last reader's `next()` awaited the cancelled run before returning.
        #expect(live.count == 0 && shared.readerCount == 0 && !shared.isRunning)
    }

    @Test func droppedLastReaderCancelsTheUpstream() async throws {
        let live = LiveCounter()
        let shared = ScriptedSequence([7], end: .hang, live: live).share()
        for try await value in shared {
            #expect(value == 7)
            break
        }
        #expect(shared.readerCount == 0 && !shared.isRunning)
        try await withTimeout { await live.waitUntilZero() }
    }

    @Test func newRunAfterEveryoneLeftDoesNotReplayTheOldValue() async throws {
        let live = LiveCounter()
        let shared = RunNumbers(live: live).share()
        do {
            var first = shared.makeAsyncIterator()
            #expect(await first.next() == 1)
        }
        // Dropping the only reader cancelled the run; the new run awaits it, then iterates again.
        var second = shared.makeAsyncIterator()
        #expect(await second.next() == 2)
        #expect(live.total == 2)
        await shared.close()
        #expect(live.count == 0)
    }

    @Test func closeEndsReadersAndAwaitsTheUpstream() async throws {
        let live = LiveCounter()
        let shared = ScriptedSequence([1], end: .hang, live: live).share()
        try await withTimeout {
            let started = await reader(of: shared, after: 1)
            await shared.close()
            #expect(live.count == 0 && !shared.isRunning)
            let received = try await started.value
            #expect(received == [1])
        }
        var late = shared.makeAsyncIterator()
        #expect(try await late.next() == nil)
        #expect(live.total == 1)
    }

    @Test func manyConcurrentReadersSeeTheCurrentValueFirstAndTheFinalValueLast() async throws {
        let source = StateBroadcast<Int, Never>(0)
        let shared = source.values().share()
        try await expectCurrentFirstFinalLast(
            shared, readers: 20, last: 500, batch: 50, send: { source.send($0) }, finish: { source.finish() })
        #expect(shared.readerCount == 0 && !shared.isRunning)
    }

    @Test func readersComingAndGoingLeaveNoRunBehindClose() async throws {
        let live = LiveCounter()
        let shared = ScriptedSequence([Int](), end: .count, live: live).share()
        try await withTimeout {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            var received: [Int] = []
                            for try await value in shared {
                                received.append(value)
                                if received.count == 3 {
                                    break
                                }
                            }
                            #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
                        } else {
                            let started = Countdown(1)
                            let reader = Task {
                                for try await _ in shared {
                                    started.arrive()
                                }
                            }
                            await started.wait()
                            reader.cancel()
                            try await reader.value
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Each run awaits the one before it, so once `close()` has awaited the latest, none is left.
        await shared.close()
        #expect(live.count == 0 && shared.readerCount == 0 && !shared.isRunning)
    }

    @MainActor
    @Test func mainActorReaderWorks() async throws {
        let shared = ScriptedSequence([1, 2, 3]).share()
        var received: [Int] = []
        for try await value in shared {
            received.append(value)
        }
        #expect(received.last == 3)
        #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
    }
}
