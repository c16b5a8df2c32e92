import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// How the connectivity monitor combines its sources and tells readers.
@Suite("Connectivity monitor", .timeLimit(.minutes(10)))
struct ConnectivityMonitorTests {
    @Test("with no source the state is unknown, which is not known down")
    func unknownWithoutSources() {
        let monitor = ConnectivityMonitor()
        #expect(monitor.current == .unknown)
    }

    @Test("disableNetwork() forces offline over every source until enableNetwork()")
    func disableForcesOffline() {
        let monitor = ConnectivityMonitor()
        monitor.setAppAvailability(true)
        monitor.disableNetwork()
        #expect(monitor.current == .offline)
        monitor.setSystemPath(.online)
        #expect(monitor.current == .offline)
        monitor.enableNetwork()
        #expect(monitor.current == .online)
    }

    @Test("the app's availability outranks the system path monitor")
    func appOutranksSystem() {
        let monitor = ConnectivityMonitor()
        monitor.setSystemPath(.online)
        #expect(monitor.current == .online)
        monitor.setAppAvailability(false)
        #expect(monitor.current == .offline)
        monitor.setAppAvailability(nil)
        #expect(monitor.current == .online)
        monitor.setSystemPath(nil)
        #expect(monitor.current == .unknown)
    }

    /// Reads `stream` in a task into a log the test can await.
    private func reading<States: AsyncSequence<Connectivity, Never> & Sendable>(_ stream: States) -> (
        AsyncLog<Connectivity>, Task<Void, Never>
    ) {
        let log = AsyncLog<Connectivity>()
        let task = Task {
            for await state in stream { log.append(state) }
        }
        return (log, task)
    }

    @Test("a new reader gets the current state first, then each change")
    func statesReplayCurrent() async throws {
        let monitor = ConnectivityMonitor()
        monitor.setAppAvailability(false)
        let (log, task) = reading(monitor.states())
        _ = try await withTimeout { try await log.values(atLeast: 1) }
        monitor.setAppAvailability(true)
        _ = try await withTimeout { try await log.values(atLeast: 2) }
        monitor.close()
        await task.value
        #expect(log.values == [.offline, .online])
    }

    @Test("a slow reader gets the newest state, not every one")
    func slowReaderGetsNewest() async throws {
        let monitor = ConnectivityMonitor()
        var reader = monitor.states().makeAsyncIterator()
        for available in [true, false, true, false] { monitor.setAppAvailability(available) }
        #expect(await reader.next() == .offline)
        monitor.close()
        #expect(await reader.next() == nil)
    }

    @Test("many readers each get every change")
    func manyReaders() async throws {
        let monitor = ConnectivityMonitor()
        let readers = [reading(monitor.states()), reading(monitor.states())]
        for (log, _) in readers { _ = try await withTimeout { try await log.values(atLeast: 1) } }
        monitor.disableNetwork()
        for (log, _) in readers { _ = try await withTimeout { try await log.values(atLeast: 2) } }
        monitor.close()
        for (log, task) in readers {
            await task.value
            #expect(log.values == [.unknown, .offline])
        }
    }

    @Test("the network comes back when it leaves offline, turns online, or enableNetwork() is called")
    func cameBackEvents() async throws {
        // Each step, and whether it wakes a reader subscribed just before it.
        let steps: [(String, @Sendable (ConnectivityMonitor) -> Void, Bool)] = [
            ("unknown -> online", { $0.setAppAvailability(true) }, true),
            ("no change", { $0.setAppAvailability(true) }, false),
            ("online -> offline", { $0.setAppAvailability(false) }, false),
            ("still offline", { $0.disableNetwork() }, false),
            ("still offline, the app says so", { $0.enableNetwork() }, false),
            ("offline -> unknown", { $0.setAppAvailability(nil) }, true),
            ("enableNetwork() while not offline", { $0.enableNetwork() }, true),
        ]
        for (index, (name, step, wakes)) in steps.enumerated() {
            let monitor = ConnectivityMonitor()
            for (_, earlier, _) in steps[..<index] { earlier(monitor) }
            let events = monitor.networkCameBack()
            step(monitor)
            monitor.close()
            let seen: [Void] = try await withTimeout { await collected(events) }
            #expect(seen.count == (wakes ? 1 : 0), "\(name)")
        }
    }

    @Test("a reader woken for nothing yet wakes once for several comebacks")
    func comebacksCoalesce() async throws {
        let monitor = ConnectivityMonitor()
        let events = monitor.networkCameBack()
        monitor.enableNetwork()
        monitor.enableNetwork()
        monitor.close()
        let seen: [Void] = try await withTimeout { await collected(events) }
        #expect(seen.count == 1)
    }

    @Test("follow(_:) applies the app's availability sequence and keeps its last value")
    func followsAppSequence() async throws {
        let monitor = ConnectivityMonitor()
        let (availability, input) = AsyncStream.makeStream(of: Bool.self)
        input.yield(true)
        input.yield(false)
        input.finish()
        try await withTimeout { await monitor.follow(availability) }
        #expect(monitor.current == .offline)
    }

    @Test("a stream asked for after close ends at once, and a reader that leaves is forgotten")
    func closeAndLeave() async throws {
        let monitor = ConnectivityMonitor()
        let reader = Task {
            for await _ in monitor.states() {}
        }
        reader.cancel()
        await reader.value
        monitor.close()
        #expect(try await withTimeout { await collected(monitor.states()) }.isEmpty)
        #expect(try await withTimeout { await collected(monitor.networkCameBack()) }.isEmpty)
    }
}

/// Collects a finite stream.
private func collected<Values: AsyncSequence<Element, Never>, Element>(_ stream: Values) async -> [Element] {
    var values: [Element] = []
    for await value in stream { values.append(value) }
    return values
}
