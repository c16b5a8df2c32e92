import Synchronization

/// The cached lists being read now outside a running live read, by canonical key and count of
/// reads: one-shot reads (`execute()`, `fetchOnce`) and live reads being joined (from their
/// list's load until they hold it). An eviction keeps them, as it keeps the lists of live reads,
/// so a read never answers from a list removed under it.
final class ListsInUse: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// The keys read now.
    var keys: Set<String> {
        counts.withLock { Set($0.keys) }
    }

    /// Runs `body` with the list of `key` counted as in use.
    nonisolated(nonsending) func using<T>(_ key: String, _ body: () async throws -> T) async rethrows -> T {
        counts.withLock { $0[key, default: 0] += 1 }
        defer {
            counts.withLock { counts in
                let left = (counts[key] ?? 1) - 1
                counts[key] = left > 0 ? left : nil
            }
        }
        return try await body()
    }
}
