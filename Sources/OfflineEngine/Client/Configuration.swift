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
    /// Primary-key columns per table; a table not named here is keyed by `id`. ``tables``
    /// names keys too, and wins where both do.
    public var primaryKeys: [String: [String]]
    /// Per table: its key columns and the values the device makes for rows written offline
    /// (ids, times), so they decode before the server has them; see ``TableSettings``.
    public var tables: [String: TableSettings] = [:]
    /// Which empty answers may be written to the cache.
    public var responseTrust: ResponseTrust
    /// The app's own view of the network, such as a reachability monitor; `true` means usable.
    public var networkAvailability: (any AsyncSequence<Bool, Never> & Sendable)?
    /// The clock behind retry schedules; tests inject a `ManualClock` (OfflineEngineTesting).
    public var clock: any Clock<Duration>
    /// Sends HTTP requests; tests inject their own.
    public var transport: any HTTPTransport
    /// Supplies the session to start with, such as your auth client restoring its stored
    /// session; `nil` (the default) reads back the session the client stored at the last sign-in.
    ///
    /// The client awaits it when it opens, without holding anything up: until it returns,
    /// ``OfflineClient/session`` reads ``SessionState/restoring``, live reads show their cached
    /// rows with ``RefreshState/refreshing`` and wait to fetch, and writes wait to learn their
    /// owner. What it returns settles the session as a call of your own would: a session signs
    /// that user in (``OfflineClient/signIn(_:)``, so a different user than the cache's owner
    /// sees their own cache, or takes it over: see ``sharing``), `nil` signs out (``OfflineClient/signOut()``). If it throws (the
    /// keychain is locked, the token refresh found no network), the client falls back to the
    /// session it stored at the last sign-in, so an offline start keeps the user's cache and
    /// queued writes; with none stored it is signed out. A ``OfflineClient/signIn(_:)`` or
    /// ``OfflineClient/signOut()`` made before it returns wins over what it returns.
    ///
    /// ```swift
    /// configuration.restoreSession = {
    ///     // nil: nobody is signed in. A throw keeps the session the client stored.
    ///     guard let restored = try await authClient.restoreStoredSession() else { return nil }
    ///     return AuthSession(
    ///         accessToken: restored.accessToken, refreshToken: restored.refreshToken,
    ///         userID: restored.userID)
    /// }
    /// ```
    public var restoreSession: (@Sendable () async throws -> AuthSession?)?
    /// Hands the client the signed-in user's access token before each request, as
    /// supabase-swift's `accessToken` option does; `nil` (the default) sends the token of the
    /// session given to ``OfflineClient/signIn(_:)``. See <doc:SigningInWithSupabase>.
    ///
    /// An app on supabase-swift's Auth hands its tokens over in one line, refreshes included
    /// (`auth.session` refreshes an expired token before it returns):
    ///
    /// ```swift
    /// configuration.accessToken = { try await supabase.auth.session.accessToken }
    /// ```
    ///
    /// The user is the token's `sub` claim. A token of another user than the request's signs
    /// that user in (as ``OfflineClient/signIn(_:)``: see ``sharing``), and the request,
    /// made for the user before, does not go: a write never leaves with another user's token.
    /// A token whose `exp` has passed is asked for once more, and so is a token the server
    /// refuses (`401`), the request then going again. `nil` or a throw means no token now: a
    /// signed-in user's requests do not go (not even with the API key alone), their writes wait
    /// in the queue and the session reads ``SessionState/waitingForToken(_:)`` until a token
    /// comes; a request of nobody goes with the API key. Without ``restoreSession``, the first
    /// token names the user the client starts with.
    public var accessToken: (@Sendable () async throws -> String?)?
    /// Classes PostgREST's refusals of a write: permanent (rejected), transient (tried again) or
    /// waiting for a session; by default ``FailureClass/standard(status:code:)``.
    public var classifyFailure: FailureClassifier = FailureClass.standard
    /// How many times a queued write is sent without an answer that settles it before it is
    /// rejected (``RejectedMutation/attemptsExhaustedCode``); `nil`: no cap. A write is never
    /// dropped: past the cap it waits in ``OfflineClient/rejectedMutations()`` for the app.
    public var maxAttempts: Int? = 100
    /// How old a queued write may grow before it is rejected rather than sent
    /// (``RejectedMutation/tooOldCode``); `nil`: any age. 30 days by default.
    public var maxWriteAge: Duration? = .seconds(30 * 24 * 3_600)
    /// How many queued writes the replay sends in one request; see ``ReplayBatching``.
    public var replayBatching = ReplayBatching()
    /// The cache's byte budget (100 MB by default), its lists' time to live and, on Apple
    /// platforms, its files' protection class; see ``CachePolicy``.
    public var cache = CachePolicy()
    /// Whose cache a signed-in user sees on a shared device: their own (``CacheSharing/perUser``,
    /// the default) or the one the previous user left (``CacheSharing/handOver``).
    public var sharing = CacheSharing.perUser
    /// The wall time: when lists are fetched and expire. Tests move it to cross a time to live
    /// between launches; within a run the ``clock`` times it.
    package var now: @Sendable () -> Date = { Date() }
    /// Encodes the values given to `insert`, `upsert`, `update` and `rpc`; by default dates are
    /// ISO 8601 in UTC with milliseconds (`2023-11-14T22:13:20.123Z`), as supabase-swift writes
    /// dates in filters. Set key or date
    /// strategies here (`.convertToSnakeCase`) once for the whole client.
    public var encoder: JSONEncoder
    /// Decodes the `value` of `execute()` (snapshots' `decode(_:decoder:)` takes it as an
    /// argument); by default it reads the dates PostgREST writes (with or without fractions and
    /// offset).
    public var decoder: JSONDecoder

    /// A configuration with defaults for everything but the server and the key.
    public init(
        url: URL,
        apiKey: String,
        storage: Storage = .inMemory,
        primaryKeys: [String: [String]] = [:],
        responseTrust: ResponseTrust = .any,
        networkAvailability: (any AsyncSequence<Bool, Never> & Sendable)? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        transport: any HTTPTransport = URLSessionTransport(),
        restoreSession: (@Sendable () async throws -> AuthSession?)? = nil,
        accessToken: (@Sendable () async throws -> String?)? = nil,
        encoder: JSONEncoder = Configuration.defaultEncoder(),
        decoder: JSONDecoder = Configuration.defaultDecoder()
    ) {
        self.url = url
        self.apiKey = apiKey
        self.storage = storage
        self.primaryKeys = primaryKeys
        self.responseTrust = responseTrust
        self.networkAvailability = networkAvailability
        self.clock = clock
        self.transport = transport
        self.restoreSession = restoreSession
        self.accessToken = accessToken
        self.encoder = encoder
        self.decoder = decoder
    }

    /// A new encoder as the client's default: dates as ISO 8601 in UTC with milliseconds
    /// (`2023-11-14T22:13:20.123Z`), as supabase-swift writes dates in filters; keys as written.
    /// Start from
    /// it to change one strategy:
    ///
    /// ```swift
    /// let encoder = Configuration.defaultEncoder()
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// configuration.encoder = encoder
    /// ```
    public static func defaultEncoder() -> JSONEncoder { JSONCoders.encoder() }

    /// A new decoder as the client's default: dates as PostgREST writes them (ISO 8601 with or
    /// without fractions, with or without an offset); keys as written.
    public static func defaultDecoder() -> JSONDecoder { JSONCoders.decoder() }
}
