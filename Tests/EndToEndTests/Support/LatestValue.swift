import Synchronization

/// The newest value a task saw, for another task to read: what a stream showed last when the
/// value a test waited for never came.
final class LatestValue<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// The newest value, if any came.
    var latest: Value? { value.withLock { $0 } }

    /// Keeps `newValue` as the newest.
    func record(_ newValue: Value) {
        value.withLock { $0 = newValue }
    }
}
