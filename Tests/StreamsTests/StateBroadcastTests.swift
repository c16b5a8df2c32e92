import OfflineEngineTesting
import Streams
import Testing

/// An actor publishing synchronously, as the engine's actors will.
private actor Publisher {
    let state = StateBroadcast<Int, any Error>(0)

    func publish(_ value: Int) {
        state.send(value)
    }
}

@Suite(.timeLimit(.minutes(10))) struct StateBroadcastTests {
    @Test func readerStartsWithTheCurrentValueThenSeesLaterOnes() async throws {
        let state = StateBroadcast<Int, Never>(1)
        state.send(2)
        var iterator = state.values().makeAsyncIterator()
        #expect(await iterator.next() == 2)
        state.send(3)
        #expect(await iterator.next() == 3)
        #expect(state.value == 3)
        state.finish()
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func updateMutatesInPlace() async {
        let state = StateBroadcast<[Int], Never>([1])
        var iterator = state.values().makeAsyncIterator()
        #expect(await iterator.next() == [1])
        state.update { $0.append(2) }
        #expect(await iterator.next() == [1, 2])
    }

    @Test func slowReaderSeesOnlyTheNewestValue() async {
        let state = StateBroadcast<Int, Never>(0)
        var iterator = state.values().makeAsyncIterator()
        #expect(await iterator.next() == 0)
        for value in 1...100 {
            state.send(value)
        }
        #expect(await iterator.next() == 100)
        state.send(101)
        state.send(102)
        state.finish()
        #expect(await iterator.next() == 102)
        #expect(await iterator.next() == nil)
    }

    @Test func finishWithErrorDeliversTheFinalValueThenThrows() async {
        let state = StateBroadcast<Int, TestError>(5)
        var iterator = state.values().makeAsyncIterator()
        state.finish(throwing: TestError(code: 2))
        #expect(state.isFinished)
        do throws(TestError) {
            #expect(try await iterator.next() == 5)
            _ = try await iterator.next()
            Issue.record("expected an error")
        } catch {
            #expect(error == TestError(code: 2))
        }
    }

    @Test func readerCreatedAfterFinishCompletesOrThrowsImmediately() async throws {
        let finished = StateBroadcast<Int, TestError>(1)
        finished.finish()
        var iterator = finished.values().makeAsyncIterator()
        #expect(try await iterator.next() == nil)

        let failed = StateBroadcast<Int, TestError>(1)
        failed.finish(throwing: TestError(code: 8))
        failed.send(2)
        #expect(failed.value == 1)
        await #expect(throws: TestError(code: 8)) {
            for try await _ in failed.values() {
                Issue.record("no value expected after finish")
            }
        }
    }

    @Test func waitingReaderIsWokenBySendAndFinish() async throws {
        let state = StateBroadcast<Int, Never>(0)
        let ready = Countdown(1)
        let reader = Task {
            var received: [Int] = []
            for await value in state.values() {
                received.append(value)
                if value == 0 {
                    ready.arrive()
                }
            }
            return received
        }
        let received = try await withTimeout {
            await ready.wait()
            state.send(1)
            state.finish()
            return await reader.value
        }
        #expect(received.first == 0)
        #expect(received.last == 1)
    }

    @Test func hundredConcurrentReadersSeeCurrentFirstAndFinalLast() async throws {
        let state = StateBroadcast<Int, any Error>(0)
        try await expectCurrentFirstFinalLast(
            state.values(), readers: 100, last: 1_000, batch: 100, send: { state.send($0) },
            finish: { state.finish() })
        #expect(state.readerCount == 0)
    }

    @Test func cancelledReadersAreRemoved() async throws {
        let state = StateBroadcast<Int, Never>(0)
        let ready = Countdown(10)
        let readers = (0..<10).map { _ in
            Task {
                for await _ in state.values() {
                    ready.arrive()
                }
            }
        }
        try await withTimeout {
            await ready.wait()
            #expect(state.readerCount == 10)
            await cancelAndWait(readers)
        }
        #expect(state.readerCount == 0)
    }

    @Test func droppedIteratorIsRemoved() async {
        let state = StateBroadcast<Int, Never>(0)
        do {
            var iterator = state.values().makeAsyncIterator()
            #expect(await iterator.next() == 0)
            #expect(state.readerCount == 1)
        }
        #expect(state.readerCount == 0)
    }

    @Test func actorsPublishWithoutAwaitingTheHolder() async throws {
        let publisher = Publisher()
        var iterator = publisher.state.values().makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        await publisher.publish(42)
        #expect(try await iterator.next() == 42)
    }

    @Test func streamHelperDeliversValuesAndErrors() async throws {
        let state = StateBroadcast<Int, any Error>(1)
        let stream = state.stream()
        #expect(state.readerCount == 1)
        let received = try await withTimeout {
            var received: [Int] = []
            do {
                for try await value in stream {
                    received.append(value)
                    if value == 1 {
                        state.send(2)
                    } else {
                        state.finish(throwing: TestError(code: 5))
                    }
                }
                Issue.record("expected an error")
            } catch {
                #expect(error as? TestError == TestError(code: 5))
            }
            return received
        }
        #expect(received == [1, 2])
        #expect(state.readerCount == 0)
    }

    @Test func cancelledStreamReaderIsRemoved() async throws {
        let state = StateBroadcast<Int, any Error>(0)
        let ready = Countdown(1)
        let reader = Task {
            for try await _ in state.stream() {
                ready.arrive()
            }
        }
        try await withTimeout {
            await ready.wait()
            reader.cancel()
            try await reader.value
        }
        #expect(state.readerCount == 0)
    }
}
