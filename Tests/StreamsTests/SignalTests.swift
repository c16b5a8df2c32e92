import OfflineEngineTesting
import Streams
import Testing

@Suite(.timeLimit(.minutes(10))) struct SignalTests {
    @Test func aFireBetweenSubscribingAndWaitingIsKept() async {
        let signal = Signal()
        let subscription = signal.subscribe()
        signal.fire()
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test func aBurstOfFiresGivesOneWake() async {
        let signal = Signal()
        var iterator = signal.subscribe().makeAsyncIterator()
        for _ in 1...3 { signal.fire() }
        #expect(await iterator.next() != nil)
        signal.finish()
        #expect(await iterator.next() == nil)
    }

    @Test func firesBeforeSubscribingAreNotSeen() async {
        let signal = Signal()
        signal.fire()
        var iterator = signal.subscribe().makeAsyncIterator()
        signal.finish()
        #expect(await iterator.next() == nil)
    }

    @Test func everyReaderGetsItsOwnWake() async {
        let signal = Signal()
        var first = signal.subscribe().makeAsyncIterator()
        var second = signal.subscribe().makeAsyncIterator()
        #expect(signal.readerCount == 2)
        signal.fire()
        #expect(await first.next() != nil)
        #expect(await second.next() != nil)
    }

    @Test func waitingReadersAreAllWoken() async throws {
        let signal = Signal()
        let readerCount = 20
        let subscribed = Countdown(readerCount)
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<readerCount {
                    group.addTask {
                        let subscription = signal.subscribe()
                        subscribed.arrive()
                        for await _ in subscription {
                            return
                        }
                        Issue.record("ended without a wake")
                    }
                }
                await subscribed.wait()
                signal.fire()
                await group.waitForAll()
            }
        }
        #expect(signal.readerCount == 0)
    }

    @Test func everyFireAfterAWakeGivesAnotherWake() async throws {
        let signal = Signal()
        let woken = StateBroadcast<Int, Never>(0)
        let subscription = signal.subscribe()
        let reader = Task {
            var wakes = 0
            for await _ in subscription {
                wakes += 1
                woken.send(wakes)
            }
            return wakes
        }
        let wakes = try await withTimeout(manyHopsLimit) {
            var progress = woken.values().makeAsyncIterator()
            for round in 1...200 {
                signal.fire()
                while let seen = await progress.next(), seen < round {}
            }
            signal.finish()
            return await reader.value
        }
        #expect(wakes == 200)
        #expect(signal.readerCount == 0)
    }

    @Test func finishEndsReadersAfterTheirPendingWake() async {
        let signal = Signal()
        var iterator = signal.subscribe().makeAsyncIterator()
        signal.fire()
        signal.finish()
        signal.fire()
        #expect(signal.isFinished)
        #expect(await iterator.next() != nil)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        var late = signal.subscribe().makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test func finishWakesAWaitingReaderWithTheEnd() async throws {
        let signal = Signal()
        let subscription = signal.subscribe()
        let reader = Task {
            var wakes = 0
            for await _ in subscription {
                wakes += 1
            }
            return wakes
        }
        signal.finish()
        #expect(try await withTimeout { await reader.value } == 0)
    }

    @Test func cancelledReadersAreRemoved() async throws {
        let signal = Signal()
        let subscribed = Countdown(2)
        let readers = [
            Task {
                let subscription = signal.subscribe()
                subscribed.arrive()
                for await _ in subscription {}
            },
            Task {
                let stream = signal.stream()
                subscribed.arrive()
                for await _ in stream {}
            },
        ]
        try await expectReadersCancelled(readers, once: subscribed) { signal.readerCount }
    }

    @Test func droppedSubscriptionsAreRemoved() {
        let signal = Signal()
        do {
            let subscription = signal.subscribe()
            let stream = signal.stream()
            #expect(signal.readerCount == 2)
            _ = (subscription, stream)
        }
        #expect(signal.readerCount == 0)
    }

    @Test func streamHelperSubscribesAtOnceAndEndsWithTheSignal() async throws {
        let signal = Signal()
        let stream = signal.stream()
        signal.fire()
        let wakes = try await withTimeout {
            var wakes = 0
            for await _ in stream {
                wakes += 1
                signal.finish()
            }
            return wakes
        }
        #expect(wakes == 1)
        #expect(signal.readerCount == 0)
    }
}
