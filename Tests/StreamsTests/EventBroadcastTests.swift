import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct EventBroadcastTests {
    @Test func readerReceivesEveryEventSentAfterSubscribingInOrder() async {
        let events = EventBroadcast<Int, Never>()
        events.send(0)
        var iterator = events.events().makeAsyncIterator()
        for value in 1...100 {
            events.send(value)
        }
        events.finish()
        events.send(101)
        var received: [Int] = []
        while let value = await iterator.next() {
            received.append(value)
        }
        #expect(received == Array(1...100))
        #expect(await iterator.next() == nil)
    }

    @Test func waitingReaderIsWokenBySend() async throws {
        let events = EventBroadcast<String, Never>()
        let subscribed = Countdown(1)
        let reader = Task {
            var iterator = events.events().makeAsyncIterator()
            subscribed.arrive()
            var received: [String] = []
            while let event = await iterator.next() {
                received.append(event)
            }
            return received
        }
        let received = try await withTimeout {
            await subscribed.wait()
            events.send("a")
            events.send("b")
            events.finish()
            return await reader.value
        }
        #expect(received == ["a", "b"])
    }

    @Test func finishWithErrorDrainsThenThrows() async {
        let events = EventBroadcast<Int, TestError>()
        var iterator = events.events().makeAsyncIterator()
        events.send(1)
        events.send(2)
        events.finish(throwing: TestError(code: 6))
        await expectElements([1, 2], thenFailure: TestError(code: 6), reading: &iterator)
    }

    @Test func readerCreatedAfterFinishCompletesOrThrowsImmediately() async throws {
        let finished = EventBroadcast<Int, TestError>()
        finished.finish()
        var iterator = finished.events().makeAsyncIterator()
        #expect(try await iterator.next() == nil)

        let failed = EventBroadcast<Int, TestError>()
        failed.finish(throwing: TestError(code: 8))
        await #expect(throws: TestError(code: 8)) {
            for try await _ in failed.events() {
                Issue.record("no event expected after finish")
            }
        }
    }

    @Test func hundredConcurrentReadersReceiveEveryEventInOrder() async throws {
        let events = EventBroadcast<Int, any Error>()
        let readerCount = 100
        let eventCount = 1_000
        let results = try await withTimeout(manyHopsLimit) {
            try await readConcurrently(events.events(), readers: readerCount, readFirst: false) {
                await sendPaced(0..<eventCount, batch: 100) { events.send($0) }
                events.finish()
            }
        }
        #expect(results.count == readerCount)
        for received in results {
            #expect(received == Array(0..<eventCount))
        }
        #expect(events.readerCount == 0)
    }

    @Test func cancelledReadersAreRemoved() async throws {
        let events = EventBroadcast<Int, Never>()
        let subscribed = Countdown(10)
        let readers = (0..<10).map { _ in
            Task {
                var iterator = events.events().makeAsyncIterator()
                subscribed.arrive()
                while await iterator.next() != nil {}
            }
        }
        try await expectReadersCancelled(readers, once: subscribed) { events.readerCount }
    }

    @Test func droppedIteratorIsRemoved() {
        let events = EventBroadcast<Int, Never>()
        do {
            let iterator = events.events().makeAsyncIterator()
            #expect(events.readerCount == 1)
            _ = iterator
        }
        #expect(events.readerCount == 0)
    }

    @Test func streamHelperDeliversEventsAndErrors() async throws {
        let events = EventBroadcast<Int, any Error>()
        let stream = events.stream()
        for value in 1...5 {
            events.send(value)
        }
        events.finish(throwing: TestError(code: 3))
        let received = try await withTimeout {
            var received: [Int] = []
            do {
                for try await value in stream {
                    received.append(value)
                }
                Issue.record("expected an error")
            } catch {
                #expect(error as? TestError == TestError(code: 3))
            }
            return received
        }
        #expect(received == [1, 2, 3, 4, 5])
        #expect(events.readerCount == 0)
    }
}
