import Synchronization

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
