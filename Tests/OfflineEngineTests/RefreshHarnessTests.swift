import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

@Suite("Refresh test harness", .timeLimit(.minutes(10)))
struct RefreshHarnessTests {
    @Test("a timeout guard fails a wait that never ends, instead of hanging")
    func timeoutGuardFails() async {
        let log = AsyncLog<Int>()
        await #expect(throws: TimedOut.self) {
            _ = try await withTimeout(0.05) { try await log.values(atLeast: 1) }
        }
    }

    @Test("an awaited log returns once it holds the values asked for")
    func logReturnsValues() async throws {
        let log = AsyncLog<Int>()
        log.append(1)
        log.append(2)
        let values = try await withTimeout { try await log.values(atLeast: 2) }
        #expect(values == [1, 2])
    }
}
