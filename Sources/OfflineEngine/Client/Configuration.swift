import Foundation

/// Everything a client needs to know: where the server is, how to identify the app, where to
/// keep its data, and the seams tests replace (clock, transport, network availability).
public struct Configuration: Sendable {
    /// The project URL (`https://abc.supabase.co`); the REST root is `<url>/rest/v1`.
    public var url: URL
    /// The project's anon (publishable) key, sent as `apikey` on every request.
    public var apiKey: String
    /// Where cached lists, the write queue and the session are kept.
    public var storage: Storage
    /// Primary-key columns per table; a table not named here is keyed by `id`.
    public var primaryKeys: [String: [String]]
    /// Which empty answers may be written to the cache.
    public var responseTrust: ResponseTrust
    /// The app's own view of the network, such as a reachability monitor; `true` means usable.
    public var networkAvailability: (any AsyncSequence<Bool, Never> & Sendable)?
    /// The clock behind retry schedules; tests inject a ``ManualClock``.
    public var clock: any Clock<Duration>
    /// Sends HTTP requests; tests inject their own.
    public var transport: any HTTPTransport
    /// Runs before the stored session is read back; tests hold it to observe `.restoring`.
    var sessionRestoreHook: (@Sendable () async -> Void)?

    /// A configuration with defaults for everything but the server and the key.
    public init(
        url: URL,
        apiKey: String,
        storage: Storage = .inMemory,
        primaryKeys: [String: [String]] = [:],
        responseTrust: ResponseTrust = .any,
        networkAvailability: (any AsyncSequence<Bool, Never> & Sendable)? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.url = url
        self.apiKey = apiKey
        self.storage = storage
        self.primaryKeys = primaryKeys
        self.responseTrust = responseTrust
        self.networkAvailability = networkAvailability
        self.clock = clock
        self.transport = transport
    }
}
