import CSQLite
import Dispatch
import Synchronization

/// One unit of store work. `run` executes on the writer thread inside the batch's transaction and
/// returns how to finish the caller once the batch has committed (or failed to).
struct StoreJob: Sendable {
    /// Whether the work changes the database (a batch of reads only needs no write lock).
    var writes: Bool
    /// Executes the work; the returned closure resumes the caller with its result, or with the
    /// commit's error when the batch could not be committed.
    var run: @Sendable (SQLiteConnection) -> @Sendable (StoreError?) -> Void
    /// Resumes the caller with an error when the work could not be run at all.
    var fail: @Sendable (StoreError) -> Void
}

/// The store's serial writer: a dedicated dispatch queue (not the Swift cooperative pool) that owns
/// the one SQLite connection and runs submitted work with group commit.
///
/// Work is appended to a pending list under a lock, in call order, and never reordered. When the
/// writer is idle, the first submission schedules a drain on the queue; the drain takes everything
/// pending, runs it in one transaction (`BEGIN IMMEDIATE` ... `COMMIT`), then resumes every caller
/// of that batch. Work submitted while a batch commits forms the next batch. So concurrent writers
/// share one commit, and a caller is resumed only after its work is durable.
final class StoreWriter: Sendable {
    private struct Pending {
        var jobs: [StoreJob] = []
        var draining = false
        var closing = false
        var closed = false
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        /// While the writer gathers a batch: how many jobs end the wait early (0: not gathering).
        var gatherTarget = 0
    }

    /// How long the writer waits, after a batch of several callers, for those callers to come back
    /// with their next work before it commits a smaller batch (PostgreSQL's `commit_delay` idea).
    /// A lone caller never waits: the writer only gathers when the last batch had several jobs.
    static let gatherWindow = DispatchTimeInterval.microseconds(250)

    private let pending = Mutex(Pending())
    private let connection: Mutex<SQLiteConnection?>
    private let queue = DispatchQueue(label: "OfflineEngine.Store.writer", qos: .userInitiated)
    private let gathered = DispatchSemaphore(value: 0)

    /// A writer that owns `connection` from now on.
    init(connection: sending SQLiteConnection) {
        self.connection = Mutex(connection)
    }

    /// Appends work in call order; `false` when the store is closed (the work was not taken).
    func submit(_ job: StoreJob) -> Bool {
        let action = pending.withLock { state -> SubmitAction in
            guard !state.closing else { return .refuse }
            state.jobs.append(job)
            if state.gatherTarget > 0, state.jobs.count >= state.gatherTarget {
                state.gatherTarget = 0
                return .endGathering
            }
            guard !state.draining else { return .none }
            state.draining = true
            return .startDrain
        }
        switch action {
        case .refuse: return false
        case .none: break
        case .endGathering: gathered.signal()
        case .startDrain: queue.async { self.drain() }
        }
        return true
    }

    /// Finishes pending work, then closes the connection; later submissions are refused.
    func close() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let action = pending.withLock { state -> CloseAction in
                if state.closed { return .resume }
                state.closeWaiters.append(waiter)
                guard !state.closing else { return .wait }
                state.closing = true
                guard !state.draining else { return .wait }
                state.draining = true
                return .drain
            }
            switch action {
            case .resume: waiter.resume()
            case .wait: break
            case .drain: queue.async { self.drain() }
            }
        }
    }

    private enum CloseAction { case resume, wait, drain }
    private enum SubmitAction { case refuse, none, endGathering, startDrain }

    private func drain() {
        var lastBatchSize = 0
        while true {
            if lastBatchSize > 1 { gather(target: lastBatchSize) }
            let next = pending.withLock { state -> (jobs: [StoreJob], close: Bool) in
                if !state.jobs.isEmpty {
                    defer { state.jobs = [] }
                    return (state.jobs, false)
                }
                state.draining = false
                return ([], state.closing && !state.closed)
            }
            if next.jobs.isEmpty {
                if next.close { finishClosing() }
                return
            }
            lastBatchSize = next.jobs.count
            let finishers = connection.withLock { connection in
                Self.runBatch(next.jobs, on: connection)
            }
            for finish in finishers { finish() }
        }
    }

    /// Waits up to `gatherWindow` until `target` jobs are pending (the callers of the last batch,
    /// just resumed, coming back), so they share the next commit.
    private func gather(target: Int) {
        let wait = pending.withLock { state -> Bool in
            guard state.jobs.count < target, !state.closing else { return false }
            state.gatherTarget = target
            return true
        }
        guard wait else { return }
        guard gathered.wait(timeout: .now() + Self.gatherWindow) == .timedOut else { return }
        let signalled = pending.withLock { state -> Bool in
            defer { state.gatherTarget = 0 }
            return state.gatherTarget == 0
        }
        // A submitter ended the gathering just as the wait timed out: take its signal so the
        // semaphore is back at zero.
        if signalled { gathered.wait() }
    }

    private func finishClosing() {
        connection.withLock { $0 = nil }
        let waiters = pending.withLock { state in
            state.closed = true
            defer { state.closeWaiters = [] }
            return state.closeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs a batch in one transaction and returns the resumptions to make after the lock is left.
    private static func runBatch(
        _ jobs: [StoreJob], on connection: SQLiteConnection?
    ) -> [@Sendable () -> Void] {
        guard let connection else {
            return jobs.map { job in { job.fail(.closed) } }
        }
        let writes = jobs.contains { $0.writes }
        do {
            try connection.run(writes ? "BEGIN IMMEDIATE" : "BEGIN")
        } catch {
            return jobs.map { job in { job.fail(error) } }
        }
        var finishes: [@Sendable (StoreError?) -> Void] = []
        finishes.reserveCapacity(jobs.count)
        for (index, job) in jobs.enumerated() {
            finishes.append(job.run(connection))
            if connection.isAutocommit {
                return rolledBack(jobs, finishes: finishes, failedAt: index)
            }
        }
        do {
            try connection.run("COMMIT")
            return finishes.map { finish in { finish(nil) } }
        } catch {
            if !connection.isAutocommit { try? connection.execute(script: "ROLLBACK") }
            return finishes.map { finish in { finish(error) } }
        }
    }

    /// A failure (disk full, I/O error) rolled the whole transaction back: the failing job reports
    /// its own error, the ones before it that nothing was kept, the ones after it were not run.
    private static func rolledBack(
        _ jobs: [StoreJob], finishes: [@Sendable (StoreError?) -> Void], failedAt index: Int
    ) -> [@Sendable () -> Void] {
        let lost = StoreError.failed(code: SQLITE_ABORT | (2 << 8), detail: "the transaction was rolled back")
        let earlier: [@Sendable () -> Void] = finishes.dropLast().map { finish in { finish(lost) } }
        let failing: @Sendable () -> Void = { [finish = finishes[index]] in finish(nil) }
        let later: [@Sendable () -> Void] = jobs.dropFirst(index + 1).map { job in { job.fail(lost) } }
        return earlier + [failing] + later
    }
}
