import Synchronization

/// The bytes the store's cached lists take (``ListTable/size(key:rows:)`` summed), kept as the
/// lists change so that a write can tell whether the cache is over its budget without asking
/// the database. Changed only by the store's jobs, on its writer; read from anywhere.
package final class CacheBytes: Sendable {
    private let bytes: Mutex<Int>

    init(_ bytes: Int) {
        self.bytes = Mutex(bytes)
    }

    /// The bytes as they stand.
    package var value: Int { bytes.withLock { $0 } }

    /// Moves the count by `change` (negative when lists were removed).
    func add(_ change: Int) {
        bytes.withLock { $0 = max(0, $0 + change) }
    }

    /// Sets the count to what the database holds (after a pass that summed it, or a clear).
    func set(_ value: Int) {
        bytes.withLock { $0 = value }
    }
}
