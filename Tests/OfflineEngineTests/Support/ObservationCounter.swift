import Observation
import OfflineEngineTesting
import Synchronization

/// Counts the changes of what `read` reads of observable models as a view sees them: a change
/// is counted when Observation reports it, and once the main actor has applied it, `read` runs
/// again and is tracked anew (so changes applied together count once), its value logged.
///
/// ```swift
/// let refresh = ObservationCounter { model.refresh }
/// let idle = try await refresh.value { $0 == .idle }
/// #expect(refresh.changes == 1)
/// ```
@MainActor
final class ObservationCounter<Value: Sendable> {
    /// Every value read: the first, then one after each change.
    let log = AsyncLog<Value>()
    private nonisolated let counted = Mutex(0)
    private let read: @MainActor () -> Value

    /// Starts tracking what `read` reads.
    init(_ read: @escaping @MainActor () -> Value) {
        self.read = read
        track()
    }

    /// How many changes were reported so far.
    var changes: Int { counted.withLock { $0 } }

    /// Waits (with a timeout) until the newest value read meets `condition`; returns it.
    func value(within seconds: Double = 30, where condition: @escaping @Sendable (Value) -> Bool) async throws
        -> Value
    {
        let log = log
        return try await withTimeout(seconds) {
            while true {
                let values = log.values
                if let last = values.last, condition(last) { return last }
                // The timeout cancels the wait, which then returns at once: stop, not spin.
                try Task.checkCancellation()
                _ = try await log.values(atLeast: values.count + 1)
            }
        }
    }

    private func track() {
        let value = withObservationTracking {
            read()
        } onChange: { [weak self] in
            self?.counted.withLock { $0 += 1 }
            // Read again once the change is applied (Observation reports it before), as a view
            // renders after the main actor's current work.
            Task { @MainActor [weak self] in self?.track() }
        }
        log.append(value)
    }
}
