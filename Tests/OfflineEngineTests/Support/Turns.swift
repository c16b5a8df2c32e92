import Synchronization

/// A count of turns shared by concurrent answers: `take()` is true for the first `count` calls,
/// as in "the first two POSTs fail".
final class Turns: Sendable {
    private let left: Mutex<Int>

    init(_ count: Int) {
        left = Mutex(count)
    }

    /// Whether a turn was left; takes it.
    func take() -> Bool {
        left.withLock { left in
            guard left > 0 else { return false }
            left -= 1
            return true
        }
    }
}
