import Foundation
import OfflineEngineTesting
import Testing

@Suite(
    "End to end: the tests' blocking calls stay off the cooperative pool", .offCooperativePool,
    .timeLimit(.minutes(10)))
struct OffCooperativePoolTests {
    @Test("a test under .offCooperativePool, and the tasks it starts, run on the growing executor")
    func runsOnTheExecutor() async {
        #expect(GrowingThreadExecutor.isCurrent)
        async let child = GrowingThreadExecutor.isCurrent
        #expect(await child)
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { GrowingThreadExecutor.isCurrent }
            for await onExecutor in group { #expect(onExecutor) }
        }
    }

    @Test("a test without it runs on the cooperative pool, so the check can fail")
    func theCheckCanFail() async {
        let onExecutor = await Task.detached { GrowingThreadExecutor.isCurrent }.value
        #expect(!onExecutor)
    }

    @Test("tasks blocked on its threads never keep another task from running: it starts a thread")
    func blockedThreadsLeaveRoom() async throws {
        let executor = GrowingThreadExecutor()
        let release = DispatchSemaphore(value: 0)
        // Eight tasks block their thread until the ninth, started after them, lets them go: on
        // a pool of fixed width they would wait for it forever.
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask(executorPreference: executor) { release.wait() }
                }
                group.addTask(executorPreference: executor) {
                    for _ in 0..<8 { release.signal() }
                }
            }
        }
        #expect(executor.threadCount >= 9)
    }
}
