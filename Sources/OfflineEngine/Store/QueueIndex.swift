import Foundation
import Synchronization

/// Where each queued write sits in the queue table (its id to its `seq`), kept in memory.
///
/// Write ids are random UUIDs: a SQLite index on them would put every append on a random index
/// page, and with group commit each commit would write one such page per write (measured: more
/// than half the writer's time). The queue table is keyed by `seq` alone, and this map finds a
/// write by id. It is touched only by store jobs on the writer thread; after any failed job or
/// commit it is marked stale and rebuilt from the table before its next use, so it never disagrees
/// with what is on disk.
final class QueueIndex: Sendable {
    private struct State {
        var sequenceByID: [UUID: Int64] = [:]
        var isStale = true
    }

    private let state = Mutex(State())

    /// The write's position in the queue table, or `nil` when it is not queued.
    func sequence(of id: UUID, _ connection: SQLiteConnection) throws(StoreError) -> Int64? {
        // Looked up under the lock: the map is not copied out for one lookup.
        if let found = state.withLock({ $0.isStale ? nil : .some($0.sequenceByID[id]) }) { return found }
        return try loaded(connection).sequenceByID[id]
    }

    /// Records an appended write.
    func insert(_ id: UUID, sequence: Int64) {
        state.withLock { $0.sequenceByID[id] = sequence }
    }

    /// Forgets a write that left the queue.
    func remove(_ id: UUID) {
        state.withLock { _ = $0.sequenceByID.removeValue(forKey: id) }
    }

    /// Replaces the map with every queued write's id and position, read in the current job.
    func fill(_ entries: [(UUID, Int64)]) {
        let fresh = State(
            sequenceByID: Dictionary(entries, uniquingKeysWith: { first, _ in first }), isStale: false)
        state.withLock { $0 = fresh }
    }

    /// Forgets every write (the queue was emptied).
    func removeAll() {
        state.withLock { $0.sequenceByID.removeAll() }
    }

    /// Marks the map as possibly out of step with the table (a job or a commit failed).
    func invalidate() {
        state.withLock { $0.isStale = true }
    }

    private func loaded(_ connection: SQLiteConnection) throws(StoreError) -> State {
        if let current = state.withLock({ $0.isStale ? nil : $0 }) { return current }
        let rows = try connection.query("SELECT id, seq FROM queue") { row in
            (row.text(0).flatMap(UUID.init(uuidString:)), row.integer(1))
        }.compactMap { id, sequence in id.map { ($0, sequence) } }
        fill(rows)
        return state.withLock { $0 }
    }
}
