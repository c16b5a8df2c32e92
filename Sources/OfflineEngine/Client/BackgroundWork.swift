/// The engine's background work (the replay loop, the watchers, the session's restore, each live
/// read's refresh) as child tasks of one task group, owned by one task that ``stop()`` cancels and
/// awaits: no piece of it outlives the client, and none is left unawaited.
///
/// Work is handed over as jobs; the group adds each as a child task as it arrives, so a job may
/// be handed over from anywhere, at any time, even before the group has started.
final class BackgroundWork: Sendable {
    typealias Job = @Sendable () async -> Void

    private let inbox: AsyncStream<Job>.Continuation
    private let runner: Task<Void, Never>

    init() {
        let (jobs, inbox) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .unbounded)
        self.inbox = inbox
        runner = Task {
            await withDiscardingTaskGroup { group in
                for await job in jobs {
                    group.addTask { await job() }
                }
            }
        }
    }

    /// Runs `job` as a child task of the group; after ``stop()`` it is dropped.
    func run(_ job: @escaping Job) {
        inbox.yield(job)
    }

    /// Takes no more work, cancels every job, and returns once all of them have ended.
    func stop() async {
        inbox.finish()
        runner.cancel()
        await runner.value
    }
}
