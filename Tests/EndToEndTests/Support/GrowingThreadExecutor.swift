import Foundation
import Synchronization

/// Runs tasks on threads of its own, starting one more whenever every thread is busy, instead of
/// on the cooperative pool. The end-to-end tests block in libpq (a query, a slot, a whole
/// differential run), and a server with its chaos must keep answering beside them: on the
/// pool's two threads (or a dispatch queue's, which grow only slowly on Linux) a few blocked
/// tests stood every other test still until its own timeout fired.
final class GrowingThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Every executor's threads, for ``isCurrent``.
    private static let allThreads = Mutex<Set<pthread_t>>([])

    /// Guards `jobs`, `waiting` and `threads`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    /// Threads waiting for a job.
    private var waiting = 0
    private var threads = 0

    /// The process's one executor (its threads stay for the next test).
    static let shared = GrowingThreadExecutor()

    /// Whether the calling code runs on a thread of a `GrowingThreadExecutor`.
    static var isCurrent: Bool { allThreads.withLock { $0.contains(pthread_self()) } }

    /// How many threads it has started.
    var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // Each waiting thread takes one job; a job beyond them gets a thread of its own.
        let start = jobs.count > waiting
        if start { threads += 1 }
        condition.signal()
        condition.unlock()
        if start {
            Thread.detachNewThread { [self] in work() }
        }
    }

    private func work() {
        _ = Self.allThreads.withLock { $0.insert(pthread_self()) }
        condition.lock()
        while true {
            waiting += 1
            while jobs.isEmpty { condition.wait() }
            waiting -= 1
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
        }
    }
}
