import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

/// The monitor tells readers under a race: a reader that stops (its task cancelled) while the
/// network comes back. The cancelling thread holds the reader task's status lock while the
/// stream's termination handler runs; the monitor must not hold its own lock while waking that
/// task, or the two wait on each other for good.
@Suite("Connectivity monitor races", .timeLimit(.minutes(10)))
struct ConnectivityMonitorRaceTests {
    @Test("readers that stop while the network comes back and goes do not deadlock the monitor")
    func stoppingReadersWhileTheNetworkChanges() async throws {
        let monitor = ConnectivityMonitor()
        let stop = Mutex(false)
        let ended = DispatchGroup()
        // Both sides on threads of their own, not the cooperative pool: a deadlock then leaves
        // the pool free to report it instead of hanging the run.
        ended.enter()
        Thread {
            while !stop.withLock({ $0 }) {
                monitor.disableNetwork()
                monitor.enableNetwork()
            }
            ended.leave()
        }.start()
        ended.enter()
        Thread {
            var waiting: [Task<Void, Never>] = []
            for round in 0..<40_000 {
                let comeback = monitor.networkCameBack()
                let states = monitor.states()
                let reader = Task {
                    for await _ in comeback {}
                    for await _ in states {}
                }
                waiting.append(reader)
                // Stop the readers of 64 rounds ago: by now most of them wait in the stream.
                if round >= 64 { waiting.removeFirst().cancel() }
            }
            for reader in waiting { reader.cancel() }
            stop.withLock { $0 = true }
            ended.leave()
        }.start()
        // A deadlock can also stop the cooperative pool (a reader's task ending takes the
        // monitor's lock), so it is reported from a thread of its own, by stopping the run.
        let finished = await withCheckedContinuation { continuation in
            Thread {
                guard ended.wait(timeout: .now() + 60) == .success else {
                    fatalError("ConnectivityMonitor deadlocked: a reader stopped while it was told")
                }
                continuation.resume(returning: true)
            }.start()
        }
        #expect(finished)
    }
}
