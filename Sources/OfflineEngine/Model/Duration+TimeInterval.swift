import Foundation

extension Duration {
    /// The duration in seconds, for arithmetic and comparisons with wall times (`Date`).
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
