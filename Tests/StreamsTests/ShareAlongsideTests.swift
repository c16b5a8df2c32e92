import OfflineEngineTesting
import Streams
import Synchronization
import Testing

/// Counts how many copies of a piece of work run and have run.
private final class WorkLog: Sendable {
    private let state = Mutex((running: 0, started: 0, ended: 0))

    var running: Int { state.withLock { $0.running } }
    var started: Int { state.withLock { $0.started } }
    var ended: Int { state.withLock { $0.ended } }

    /// Runs until cancelled, counted.
    func work() async {
        state.withLock {
            $0.running += 1
            $0.started += 1
        }
        while !Task.isCancelled { await Task.yield() }
        state.withLock {
            $0.running -= 1
            $0.ended += 1
        }
    }
}

@Suite("share(alongside:)", .timeLimit(.minutes(10)))
struct ShareAlongsideTests {
    @Test("the work starts with the run and is cancelled and awaited before the last reader's loop ends")
    func workEndsWithTheRun() async throws {
        let log = WorkLog()
        let source = StateBroadcast<Int, Never>(0)
        let shared = source.values().share(alongside: { await log.work() })
        let reader = Task {
            for await _ in shared {}
        }
        try await withTimeout { while log.running == 0 { await Task.yield() } }
        #expect(log.started == 1)
        reader.cancel()
        await reader.value
        // The last reader's loop ended only after the work had returned.
        #expect(log.running == 0 && log.ended == 1)
    }

    @Test("readers of one run share one copy of the work; a later run starts a new one")
    func oneWorkPerRun() async throws {
        let log = WorkLog()
        let source = StateBroadcast<Int, Never>(0)
        let shared = source.values().share(alongside: { await log.work() })
        var first = shared.makeAsyncIterator()
        var second = shared.makeAsyncIterator()
        _ = await first.next()
        _ = await second.next()
        try await withTimeout { while log.running == 0 { await Task.yield() } }
        #expect(log.started == 1)
        await shared.close()
        #expect(log.running == 0 && log.ended == 1)
        let again = StateBroadcast<Int, Never>(0).values().share(alongside: { await log.work() })
        let reader = Task { for await _ in again {} }
        try await withTimeout { while log.running == 0 { await Task.yield() } }
        #expect(log.started == 2)
        reader.cancel()
        await reader.value
        #expect(log.running == 0)
    }

    @Test("when the base ends, readers get the end once the work has returned")
    func baseEndingStopsTheWork() async throws {
        let log = WorkLog()
        let source = StateBroadcast<Int, Never>(0)
        let shared = source.values().share(alongside: { await log.work() })
        let reader = Task { () -> Int in
            var count = 0
            for await _ in shared { count += 1 }
            return count
        }
        try await withTimeout { while log.running == 0 { await Task.yield() } }
        source.finish()
        let count = try await withTimeout { await reader.value }
        #expect(count >= 1)
        #expect(log.running == 0 && log.ended == 1)
    }
}
