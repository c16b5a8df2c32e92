import CSQLite
import Dispatch
import Synchronization

/// One unit of store work. `run` executes on the writer thread inside the batch's transaction and
/// returns how to finish the caller once the batch has committed (or failed to).
struct StoreJob: Sendable {
    /// Whether the work changes the database (a batch of reads only needs no write lock).
    var writes: Bool
    /// Whether the write-ahead log must be emptied into the database file and truncated to 0
    /// bytes once the batch has committed (`PRAGMA wal_checkpoint(TRUNCATE)`), so that no older
    /// version of a page is left in the log: how a clear leaves no cleared value in the files. A
    /// checkpoint cannot run inside a transaction, so the writer runs it after the batch's commit,
    /// once however many jobs of the batch ask for it; its failure is the error of those jobs.
    var checkpointsAfterCommit = false
    /// Whether a file made before incremental vacuum (`auto_vacuum` off) must be rebuilt with it
    /// once the batch has committed (`VACUUM`, which cannot run inside a transaction either), so
    /// that the pages freed by evicted lists leave the file. Runs before the checkpoint, which a
    /// job asking for it also asks for.
    var vacuumsAfterCommit = false
    /// Executes the work; the returned closure resumes the caller with its result, or with the
    /// error of the commit (the batch could not be committed) or of the checkpoint it asked for.
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
///
/// A caller with a write that finds the writer idle runs it itself, on its own thread and without
/// suspending (``runAtOnceIfIdle(oneStatement:_:)``), instead of handing it to the queue and
/// waiting to be woken: no thread hand-off for a lone writer (and a lone append of one statement
/// is that statement's own transaction). What arrives meanwhile forms the next batch, on the queue
/// as before. Never a checkpoint or a vacuum: those can take long, and stay on the queue.
final class StoreWriter: Sendable {
    private struct Pending {
        var jobs: [StoreJob] = []
        var draining = false
        var closing = false
        var closed = false
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let pending = Mutex(Pending())
    private let connection: Mutex<SQLiteConnection?>
    private let queue = DispatchQueue(label: "OfflineEngine.Store.writer", qos: .userInitiated)
    /// Test-only: failures armed on commits, and the commits counted.
    let hooks: CommitHooks
    /// Test-only: the rows the connection's reads return (see ``ReadHooks``).
    let readHooks: ReadHooks

    /// A writer that owns `connection` from now on.
    init(connection: sending SQLiteConnection, hooks: CommitHooks) {
        readHooks = connection.readHooks
        self.connection = Mutex(connection)
        self.hooks = hooks
    }

    /// How many submitted jobs wait for the batch under way to end; tests use it to know that a
    /// caller has reached the store.
    var waitingJobs: Int { pending.withLock { $0.jobs.count } }

    /// Appends work in call order; `false` when the store is closed (the work was not taken).
    func submit(_ job: StoreJob) -> Bool {
        let action = pending.withLock { state -> SubmitAction in
            guard !state.closing else { return .refuse }
            state.jobs.append(job)
            guard !state.draining else { return .none }
            state.draining = true
            return .startDrain
        }
        switch action {
        case .refuse: return false
        case .none: break
        case .startDrain: queue.async { self.drain() }
        }
        return true
    }

    /// Runs `work` on the caller's thread, in a transaction of its own, when the writer is idle
    /// (no batch under way, none waiting, not closing): its result, or the commit's error, once
    /// committed. `nil`: nothing was run, the caller submits it as a job instead. Never a
    /// checkpoint or a vacuum: those can take long, and stay on the queue. No job, closure or
    /// array is made: a lone write costs its commit. Work that changes the store with
    /// `oneStatement` runs as that statement's own transaction (SQLite's autocommit), without
    /// `BEGIN` and `COMMIT` around it: the same one commit, two statements fewer (unless a test
    /// has armed a commit failure, which must read the transaction before it commits).
    func runAtOnceIfIdle<T: Sendable>(
        oneStatement: Bool = false, _ work: @Sendable (SQLiteConnection) -> Result<T, StoreError>
    ) -> Result<T, StoreError>? {
        let taken = pending.withLock { state -> Bool in
            guard !state.closing, !state.draining else { return false }
            state.draining = true
            return true
        }
        guard taken else { return nil }
        let result = connection.withLock { connection in
            Self.runLone(work, on: connection, hooks: hooks, autocommit: oneStatement && !hooks.armed)
        }
        handBack()
        return result
    }

    /// ``runBatch(_:on:hooks:)`` for one piece of work run in place; with `autocommit`, work of
    /// one statement runs as that statement's own transaction (committed when it succeeds,
    /// rolled back by SQLite when it fails).
    private static func runLone<T: Sendable>(
        _ work: @Sendable (SQLiteConnection) -> Result<T, StoreError>, on connection: SQLiteConnection?,
        hooks: CommitHooks, autocommit: Bool
    ) -> Result<T, StoreError> {
        guard let connection else { return .failure(.closed) }
        if autocommit {
            let outcome = work(connection)
            if case .success = outcome { hooks.committed() }
            return outcome
        }
        do {
            try connection.run("BEGIN IMMEDIATE")
        } catch {
            return .failure(error)
        }
        let outcome = work(connection)
        // A failure that rolled the transaction back: the work's own error says what happened.
        guard !connection.isAutocommit else { return outcome }
        return commit(on: connection, writes: true, hooks: hooks).map { .failure($0) } ?? outcome
    }

    /// Commits the transaction whose work has run: `nil` once committed (and counted, for a
    /// batch that writes), or the error of a failure a test armed or of `COMMIT` itself, the
    /// transaction then rolled back.
    private static func commit(on connection: SQLiteConnection, writes: Bool, hooks: CommitHooks)
        -> StoreError?
    {
        if writes, let error = hooks.failure(beforeCommitOn: connection) {
            try? connection.execute(script: "ROLLBACK")
            return error
        }
        do {
            try connection.run("COMMIT")
        } catch {
            if !connection.isAutocommit { try? connection.execute(script: "ROLLBACK") }
            return error
        }
        if writes { hooks.committed() }
        return nil
    }

    /// After a write ran on a caller's thread: idle again, or what arrived meanwhile (and a close
    /// asked for meanwhile) goes to the queue.
    private func handBack() {
        let more = pending.withLock { state in
            guard state.jobs.isEmpty, !(state.closing && !state.closed) else { return true }
            state.draining = false
            return false
        }
        if more { queue.async { self.drain() } }
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
    private enum SubmitAction { case refuse, none, startDrain }

    private func drain() {
        while true {
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
            let finishers = connection.withLock { connection in
                Self.runBatch(next.jobs, on: connection, hooks: hooks)
            }
            for finish in finishers { finish() }
        }
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
        _ jobs: [StoreJob], on connection: SQLiteConnection?, hooks: CommitHooks
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
        if let error = commit(on: connection, writes: writes, hooks: hooks) {
            return finishes.map { finish in { finish(error) } }
        }
        let vacuumError =
            jobs.contains { $0.vacuumsAfterCommit } ? rebuildWithIncrementalVacuum(connection) : nil
        let checkpointError =
            vacuumError ?? (jobs.contains { $0.checkpointsAfterCommit } ? checkpoint(connection) : nil)
        return zip(jobs, finishes).map { job, finish in
            let error = job.checkpointsAfterCommit ? checkpointError : nil
            return { finish(error) }
        }
    }

    /// Rebuilds a file whose `auto_vacuum` is off with incremental vacuum on (once per file: later
    /// compactions give pages back inside their transaction); nothing for a file that has it.
    private static func rebuildWithIncrementalVacuum(_ connection: SQLiteConnection) -> StoreError? {
        do {
            let mode = try connection.query("PRAGMA auto_vacuum") { row in row.integer(0) }
            guard mode.first == 0 else { return nil }
            try connection.execute(script: "PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
            return nil
        } catch {
            return error
        }
    }

    /// Copies every page of the log into the database file and truncates the log to 0 bytes.
    private static func checkpoint(_ connection: SQLiteConnection) -> StoreError? {
        do {
            // One row: whether the checkpoint was blocked, the log's frames, the frames copied.
            let blocked = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { row in row.integer(0) }
            guard blocked.first != 1 else {
                return .failed(code: SQLITE_BUSY, detail: "the write-ahead log could not be emptied")
            }
            return nil
        } catch {
            return error
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
