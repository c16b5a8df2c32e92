import Foundation

/// A task executor whose jobs run one at a time on a thread of its own, only as the test lets
/// them: a test stops a task at any of its suspension points and runs other work there, the same
/// way every run, with no sleeps.
///
/// A task started here (``start(_:)``) runs its code here, the actors it calls included (a
/// default actor runs a job on the preferred executor of the task it runs for). Each job is one
/// stretch of code with no suspension in it, so stepping job by job visits every point where
/// something else could run.
///
/// ```swift
/// let executor = SteppedExecutor()
/// let write = executor.start { try await client.from("tasks").insert(row).execute() }
/// for _ in 0..<k { guard await executor.step() else { break } }
/// let clear = executor.start { try await client.clearLocalData() }
/// await executor.runAll(newestFirst: true)
/// ```
final class SteppedExecutor: TaskExecutor, @unchecked Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        /// How many more jobs the thread may run.
        var allowed = 0
        var newestFirst = false
        var ran = 0
        var started = 0
        var ended = 0
        var stopped = false
        var waiters: [(ready: @Sendable (State) -> Bool, resume: CheckedContinuation<Void, Never>)] = []
    }

    /// Guards `state`; the thread waits on it for a job it may run.
    private let condition = NSCondition()
    private var state = State()

    init() {
        let thread = Thread { [self] in runJobs() }
        thread.name = "SteppedExecutor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        change { $0.jobs.append(unowned) }
    }

    /// Starts `work` as a task that prefers this executor; no job of it runs until allowed.
    func start<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        change { $0.started += 1 }
        return Task(executorPreference: self) {
            defer { self.change { $0.ended += 1 } }
            return try await work()
        }
    }

    /// Runs the oldest waiting job once there is one; `false` (nothing run) when every task
    /// started here has ended.
    func step() async -> Bool {
        await wait { !$0.jobs.isEmpty || $0.ended == $0.started }
        var ranBefore = 0
        let runs = change { state in
            guard !state.jobs.isEmpty else { return false }
            ranBefore = state.ran
            state.newestFirst = false
            state.allowed = 1
            return true
        }
        guard runs else { return false }
        let target = ranBefore + 1
        await wait { $0.ran >= target }
        return true
    }

    /// Runs every job until each task started here has ended; `newestFirst` runs the latest
    /// work first, so a task started last runs ahead of jobs that waited before it.
    func runAll(newestFirst: Bool) async {
        change {
            $0.newestFirst = newestFirst
            $0.allowed = .max
        }
        await wait { $0.ended == $0.started }
    }

    /// Ends the thread once its work is done.
    func stop() {
        change { $0.stopped = true }
    }

    private func runJobs() {
        while true {
            condition.lock()
            while !state.stopped && (state.jobs.isEmpty || state.allowed == 0) { condition.wait() }
            if state.stopped && state.jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = state.newestFirst ? state.jobs.removeLast() : state.jobs.removeFirst()
            if state.allowed != .max { state.allowed -= 1 }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            change { $0.ran += 1 }
        }
    }

    /// Returns once `ready` holds of the state.
    private func wait(until ready: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            change { $0.waiters.append((ready, continuation)) }
        }
    }

    /// Changes the state under the lock, wakes the thread, and resumes the waiters now ready.
    @discardableResult
    private func change<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        let result = body(&state)
        let now = state
        let ready = now.waiters.filter { $0.ready(now) }.map(\.resume)
        state.waiters.removeAll { $0.ready(now) }
        condition.broadcast()
        condition.unlock()
        for continuation in ready { continuation.resume() }
        return result
    }
}
