import Foundation
import Synchronization

/// A wall time a test sets, for `Configuration.now`: lets a time to live pass between launches
/// without waiting.
final class WallTime: Sendable {
    let start: Date
    private let current: Mutex<Date>

    init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.start = start
        current = Mutex(start)
    }

    /// The time as set.
    var now: Date { current.withLock { $0 } }

    /// Sets the time to `seconds` after the start.
    func set(secondsAfterStart seconds: Double) {
        current.withLock { $0 = start.addingTimeInterval(seconds) }
    }
}
