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

    /// Runs `job` as a child task of the group; returns `false` when ``stop()`` has begun and the
    /// job was dropped.
    @discardableResult
    func run(_ job: @escaping Job) -> Bool {
        if case .terminated = inbox.yield(job) { return false }
        return true
    }

    /// Takes no more work, cancels every job, and returns once all of them have ended.
    func stop() async {
        inbox.finish()
        runner.cancel()
        await runner.value
    }

    /// Runs `forward` as a child task until it ends or the reader of `continuation`'s stream
    /// stops (cancels its loop or drops the stream); then the stream is finished. After
    /// ``stop()`` the stream fails with ``ClientError/closed`` at once.
    func forward<Element>(
        until continuation: AsyncThrowingStream<Element, any Error>.Continuation,
        _ forward: @escaping @Sendable () async -> Void
    ) {
        let stopped = Self.stopped(continuation)
        let taken = run {
            await Self.run(forward, until: stopped)
            continuation.finish()
        }
        if !taken { continuation.finish(throwing: ClientError.closed) }
    }

    /// Ends when the reader of `continuation`'s stream stops. Made when the stream is, so a reader
    /// that stops before the work starts is not missed.
    private static func stopped<Element, Failure>(
        _ continuation: AsyncThrowingStream<Element, Failure>.Continuation
    ) -> AsyncStream<Void> {
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        continuation.onTermination = { _ in stop.finish() }
        return stopped
    }

    /// Runs `work` until it ends or `stopped` ends, whichever is first; the other is cancelled
    /// and awaited.
    private static func run(_ work: @escaping @Sendable () async -> Void, until stopped: AsyncStream<Void>)
        async
    {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            group.addTask {
                for await _ in stopped {}
            }
            await group.next()
            group.cancelAll()
        }
    }
}
