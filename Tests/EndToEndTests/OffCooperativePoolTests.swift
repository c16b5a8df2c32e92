import Testing

@Suite("End to end: the tests' blocking calls stay off the cooperative pool", .offCooperativePool)
struct OffCooperativePoolTests {
    @Test("a test under .offCooperativePool, and the tasks it starts, run on the dispatch executor")
    func runsOnTheDispatchExecutor() async {
        #expect(DispatchTaskExecutor.isCurrent)
        async let child = DispatchTaskExecutor.isCurrent
        #expect(await child)
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { DispatchTaskExecutor.isCurrent }
            for await onExecutor in group { #expect(onExecutor) }
        }
    }

    @Test("a test without it runs on the cooperative pool, so the check can fail")
    func theCheckCanFail() async {
        let onExecutor = await Task.detached { DispatchTaskExecutor.isCurrent }.value
        #expect(!onExecutor)
    }
}
