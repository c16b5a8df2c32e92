import OfflineEngine
import Synchronization

/// The snapshots a live read showed, split at the moment a write's `execute()` returned.
final class SnapshotLog: Sendable {
    private let state = Mutex<(all: [QuerySnapshot], writeAt: Int?)>(([], nil))

    func append(_ snapshot: QuerySnapshot) { state.withLock { $0.all.append(snapshot) } }

    /// Marks that the write has returned: later snapshots must show it.
    func markWriteReturned() { state.withLock { $0.writeAt = $0.all.count } }

    /// The snapshots shown after the write returned.
    var afterWrite: [QuerySnapshot] {
        state.withLock { state in state.writeAt.map { Array(state.all[$0...]) } ?? [] }
    }
}
