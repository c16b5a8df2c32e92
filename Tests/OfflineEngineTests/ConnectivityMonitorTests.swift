import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// How the connectivity monitor combines its sources and tells readers.
@Suite("Connectivity monitor")
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
    private func reading(_ stream: AsyncStream<Connectivity>) -> (AsyncLog<Connectivity>, Task<Void, Never>) {
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
        let states = monitor.states()
        for available in [true, false, true, false] { monitor.setAppAvailability(available) }
        monitor.close()
        let seen = try await withTimeout { await collected(states) }
        #expect(seen == [.offline])
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
        let monitor = ConnectivityMonitor()
        let events = monitor.networkCameBack()
        monitor.setAppAvailability(true)  // unknown -> online: came back
        monitor.setAppAvailability(true)  // no change: nothing
        monitor.setAppAvailability(false)  // online -> offline: nothing
        monitor.disableNetwork()  // still offline: nothing
        monitor.enableNetwork()  // still offline (the app says so): nothing
        monitor.setAppAvailability(nil)  // offline -> unknown: came back
        monitor.enableNetwork()  // called while not offline: came back
        monitor.close()
        let seen: [Void] = try await withTimeout { await collected(events) }
        #expect(seen.count == 3)
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
private func collected<Element>(_ stream: AsyncStream<Element>) async -> [Element] {
    var values: [Element] = []
    for await value in stream { values.append(value) }
    return values
}
