/// How long a failing refresh (or a stopped replay) waits before it tries again: quickly at first,
/// then at most a minute apart, so a short outage is bridged fast and a long one costs little.
struct RetrySchedule: Sendable, Hashable {
    /// The waits after the first, second, ... failure in a row.
    var delays: [Duration]
    /// The wait after every later failure.
    var thereafter: Duration

    /// The reference schedule: 300 ms, 900 ms, 2.4 s, 5 s, 15 s, then every 60 s.
    static let standard = RetrySchedule(
        delays: [.milliseconds(300), .milliseconds(900), .milliseconds(2400), .seconds(5), .seconds(15)],
        thereafter: .seconds(60)
    )

    /// The wait after the `failures`-th failure in a row (1 for the first); zero before any.
    func delay(afterFailure failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        return failures <= delays.count ? delays[failures - 1] : thereafter
    }
}
