/// What a refresh loop needs from the rest of the engine besides its fetch: time, the network's
/// state and the session's, each injected so tests can drive them.
struct RefreshEnvironment: Sendable {
    /// The clock the retry waits run on (`ContinuousClock` live, a `ManualClock` in tests).
    var clock: any Clock<Duration>
    /// The network's state now; only `.offline` (known down) pauses a refresh.
    var connectivity: @Sendable () -> Connectivity
    /// Subscribes to "the network came back" events (one stream per subscription).
    var networkCameBack: @Sendable () -> AsyncStream<Void>
    /// Whether the stored session is still being read back, asked once when the loop starts.
    var sessionRestoring: @Sendable () -> Bool
    /// Subscribes to "the session settled" events: a stored session finished restoring, or a
    /// user signed in (one stream per subscription).
    var sessionSettled: @Sendable () -> AsyncStream<Void>
    /// The waits after failures.
    var schedule: RetrySchedule
    /// Safe words for a failed request's error (no URL, filter value, token or row data), or nil
    /// for the generic phrase; becomes the stall cause's `description`.
    var summarize: @Sendable (any Error) -> String?
    /// Told each state the refresh moves to (the client's ``OfflineClient/events``).
    var stateChanged: @Sendable (RefreshState) -> Void = { _ in }

    /// An environment from its parts; the schedule defaults to the reference's.
    init(
        clock: any Clock<Duration>,
        connectivity: @escaping @Sendable () -> Connectivity,
        networkCameBack: @escaping @Sendable () -> AsyncStream<Void>,
        sessionRestoring: @escaping @Sendable () -> Bool,
        sessionSettled: @escaping @Sendable () -> AsyncStream<Void>,
        schedule: RetrySchedule = .standard,
        summarize: @escaping @Sendable (any Error) -> String? = { _ in nil }
    ) {
        self.summarize = summarize
        self.clock = clock
        self.connectivity = connectivity
        self.networkCameBack = networkCameBack
        self.sessionRestoring = sessionRestoring
        self.sessionSettled = sessionSettled
        self.schedule = schedule
    }

    /// An environment whose network facts come from `monitor`.
    init(
        clock: any Clock<Duration>,
        connectivity monitor: ConnectivityMonitor,
        sessionRestoring: @escaping @Sendable () -> Bool,
        sessionSettled: @escaping @Sendable () -> AsyncStream<Void>,
        schedule: RetrySchedule = .standard,
        summarize: @escaping @Sendable (any Error) -> String? = { _ in nil }
    ) {
        self.init(
            clock: clock,
            connectivity: { monitor.current },
            networkCameBack: { monitor.networkCameBack() },
            sessionRestoring: sessionRestoring,
            sessionSettled: sessionSettled,
            schedule: schedule,
            summarize: summarize
        )
    }
}
