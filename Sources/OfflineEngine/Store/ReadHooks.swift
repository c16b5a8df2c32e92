import Synchronization

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
