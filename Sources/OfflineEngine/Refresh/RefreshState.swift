/// Where the refresh behind a live read stands, so the app can say whether the rows on screen are
/// up to date, being asked for, waiting for the network, or the device's own while the server
/// cannot be reached.
public enum RefreshState: Sendable, Hashable {
    /// No refresh is running or waiting: the last one succeeded, or the read does not refresh.
    /// Show nothing.
    case idle
    /// A refresh is running, is about to be tried again soon after a failure, or waits for a
    /// session that is still settling. Show a quiet progress mark, if anything.
    case refreshing
    /// The refresh waits for the network, which is known to be unavailable; nothing is failing.
    /// Show "Offline": the rows are the device's.
    case paused
    /// The refresh keeps failing while the network is believed to be up; it is still tried, at
    /// most a minute apart. Show "Can't reach the server": the rows are the device's.
    ///
    /// The cause is the failure that stalled the refresh; later failures do not replace it.
    case stalled(RefreshFailure)
}
