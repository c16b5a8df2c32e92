import OfflineEngineTesting
import Testing

@Suite(.timeLimit(.minutes(10))) struct TestSupportTests {
    @Test func timeoutGuardFailsInsteadOfHangingOnAnUncancellableWait() async {
        let never = Countdown(1)
        await #expect(throws: TimedOut.self) {
            try await withTimeout(0.2) {
                await never.wait()
            }
        }
        never.arrive()
    }

    @Test func liveCounterWakesWaitersAtZero() async throws {
        let live = LiveCounter()
        var token: ScriptedSequence<Int>.Token? = ScriptedSequence<Int>.Token(live: live)
        #expect(live.count == 1)
        let waiter = Task { await live.waitUntilZero() }
        token = nil
        try await withTimeout { await waiter.value }
        #expect(live.count == 0 && token == nil)
    }
}
