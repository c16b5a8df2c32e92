/// How long a flush in an Apple background task may run: compiled on every platform so that it
/// is tested here, where `flushInBackground(within:)` itself is not.
enum BackgroundFlushBudget {
    /// The time kept for ending the background task after the flush returns.
    static let reserve = 5.0

    /// `limit`, or less when the system grants less: `remaining` is UIKit's
    /// `backgroundTimeRemaining`, which reads `Double.greatestFiniteMagnitude` while the app is
    /// still in the foreground (taken as no bound, never turned into a `Duration`, which would
    /// overflow), and a few seconds once the app is in the background.
    static func budget(limit: Duration, remaining: Double) -> Duration {
        let (seconds, attoseconds) = limit.components
        let limitSeconds = Double(seconds) + Double(attoseconds) / 1e18
        let left = remaining - reserve
        if left.isNaN || left >= limitSeconds { return limit }
        if left <= 0 { return .zero }
        return .seconds(left)
    }
}
