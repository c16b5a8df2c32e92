import Dispatch

/// Runs tasks on threads of a concurrent dispatch queue instead of the cooperative pool: a
/// server and its chaos under `withTaskExecutorPreference` keep answering while the tests beside
/// them hold the pool's few threads in blocking work (libpq, a whole differential run).
final class DispatchTaskExecutor: TaskExecutor {
    private static let key = DispatchSpecificKey<Bool>()
    private let queue = DispatchQueue(label: "dispatch-task-executor", attributes: .concurrent)

    init() {
        queue.setSpecific(key: Self.key, value: true)
    }

    /// Whether the calling code runs on the queue of a `DispatchTaskExecutor`.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) ?? false }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
