import Synchronization

// The store's test-only hooks, in one file: its commits (failed on purpose, counted) and its
// reads (recorded row by row).

/// Test-only hooks on the store's commits: a test fails a commit on purpose, to check that
/// nothing a failed commit would have stored is ever published, and counts commits, to check
/// what an event costs. The library never arms a failure; unarmed, the hooks cost one lock per
/// batch.
package final class CommitHooks: Sendable {
    /// Whether a failure applies to the batch about to commit; runs on the writer, inside the
    /// batch's transaction, so it reads what the commit would store.
    typealias Condition = @Sendable (SQLiteConnection) throws(StoreError) -> Bool

    private struct Failure {
        var id: Int
        var remaining: Int
        var error: StoreError
        var condition: Condition
    }

    private struct Hooks {
        var failures: [Failure] = []
        var nextID = 0
        var commits = 0
    }

    private let hooks = Mutex(Hooks())

    /// Whether a failure is armed: a write then always runs in a transaction of its own making,
    /// which the failure's condition can read before it commits.
    var armed: Bool { hooks.withLock { !$0.failures.isEmpty } }

    /// How many transactions that change the store have committed.
    package var commits: Int { hooks.withLock { $0.commits } }

    /// Fails the next `count` commits of a batch that changes the store and for which `condition`
    /// holds inside its transaction: the batch is rolled back and each of its callers gets
    /// `error`, as when the disk fills up at the commit.
    func failCommits(
        _ count: Int = 1, with error: StoreError = .full, when condition: @escaping Condition = { _ in true }
    ) {
        hooks.withLock { hooks in
            hooks.failures.append(
                Failure(id: hooks.nextID, remaining: count, error: error, condition: condition))
            hooks.nextID += 1
        }
    }

    /// The error to fail the batch about to commit with, if an armed failure applies (it is used
    /// up); called by the writer before every commit of a batch that writes.
    func failure(beforeCommitOn connection: SQLiteConnection) -> StoreError? {
        let armed = hooks.withLock { $0.failures }
        guard let applying = armed.first(where: { (try? $0.condition(connection)) == true }) else {
            return nil
        }
        hooks.withLock { hooks in
            guard let index = hooks.failures.firstIndex(where: { $0.id == applying.id }) else { return }
            hooks.failures[index].remaining -= 1
            if hooks.failures[index].remaining <= 0 { hooks.failures.remove(at: index) }
        }
        return applying.error
    }

    /// Counts a commit of a batch that changed the store.
    func committed() {
        hooks.withLock { $0.commits += 1 }
    }
}

/// Test-only: the rows the store's reads return, statement by statement, so a test can check
/// what an event reads (a live read's first snapshot reads its own list and its table's replay
/// log, nothing else). Off until a test starts it; off, a read pays one atomic load.
package final class ReadHooks: Sendable {
    /// One read: its statement and how many rows it returned.
    package struct Read: Sendable, Equatable {
        package var sql: String
        package var rows: Int
    }

    private let counting = Atomic<Bool>(false)
    private let reads = Mutex<[Read]>([])

    /// Starts recording reads, forgetting any recorded before.
    package func start() {
        reads.withLock { $0 = [] }
        counting.store(true, ordering: .releasing)
    }

    /// Stops recording and returns the reads recorded since ``start()``, in order.
    package func stop() -> [Read] {
        counting.store(false, ordering: .releasing)
        return reads.withLock { $0 }
    }

    /// Records a read of `rows` rows by `sql`, while recording.
    func record(_ sql: String, rows: Int) {
        guard counting.load(ordering: .acquiring) else { return }
        reads.withLock { $0.append(Read(sql: sql, rows: rows)) }
    }
}
