import Foundation

/// Runs tasks one job at a time, in the order they were enqueued, on one thread of its own: a
/// test of what runs before what (a reader that yields lets the tasks already waiting run
/// first) sees the same order every time, whatever else the process runs.
final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init() {
        Thread.detachNewThread { [self] in work() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
