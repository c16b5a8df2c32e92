import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// A client on an in-memory store and an in-memory server, for tests of the whole engine.
struct ClientFixture {
    let server: InMemoryPostgREST
    let client: OfflineClient
    let clock: ManualClock
    /// Every request that reached the server, in order (when the fixture installed the probe).
    let probe: ServerProbe

    init(
        tables: [String: [Row]] = ["tasks": []], primaryKeys: [String: [String]] = [:],
        responseTrust: ResponseTrust = .any, storage: Storage = .inMemory,
        signedInAs user: String? = "user-1",
        server existing: InMemoryPostgREST? = nil, probe existingProbe: ServerProbe? = nil,
        configure: (inout Configuration) -> Void = { _ in }
    ) async throws {
        server = existing ?? InMemoryPostgREST(tables: tables, primaryKeys: primaryKeys)
        probe = existingProbe ?? ServerProbe()
        await probe.install(on: server)
        clock = ManualClock()
        var configuration = Configuration(
            url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: storage,
            primaryKeys: primaryKeys, responseTrust: responseTrust, clock: clock, transport: server)
        configure(&configuration)
        client = try await OfflineClient(configuration: configuration)
        if let user {
            try await client.signIn(Self.session(user))
        }
    }

    static func session(_ user: String) -> AuthSession {
        AuthSession(accessToken: "token-\(user)", userID: user)
    }

    /// The GET requests the server received so far.
    var gets: [HTTPRequest] { probe.requests.filter { $0.method == .get } }
    /// The write requests the server received so far.
    var writes: [HTTPRequest] { probe.requests.filter { $0.method != .get } }
}

extension ClientFixture {
    /// Waits until at least `count` tasks sleep on the fixture's clock, failing after `seconds`.
    func sleepers(atLeast count: Int, within seconds: Double = 30) async throws {
        try await withTimeout(seconds) { [clock] in await clock.sleepers(atLeast: count) }
    }

    /// The latest snapshot of a live read that is being read now.
    func current(_ read: ReadQuery) async -> QuerySnapshot? {
        await client.engine.liveReads.latest(of: read.query.canonicalKey)
    }
}

/// A fresh folder for one test's store.
func clientStoreFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("client-tests-\(UUID().uuidString)")
}

/// Sees every request the in-memory server gets: records it, and lets a test answer, fail or hold
/// requests that match a rule.
final class ServerProbe: Sendable {
    typealias Rule = @Sendable (HTTPRequest) async throws -> HTTPResponse?

    private let log = AsyncLog<HTTPRequest>()
    private let rule = Mutex<Rule?>(nil)

    /// Every request seen, in order.
    var requests: [HTTPRequest] { log.values }

    /// Waits until at least `count` requests matching `filter` were seen.
    func requests(
        atLeast count: Int, within seconds: Double = 30,
        where filter: @escaping @Sendable (HTTPRequest) -> Bool
    ) async throws -> [HTTPRequest] {
        try await withTimeout(seconds) { [log] in
            var seenSoFar = 0
            while true {
                let all = try await log.values(atLeast: seenSoFar + 1)
                seenSoFar = all.count
                let matching = all.filter(filter)
                if matching.count >= count { return matching }
            }
        }
    }

    /// Waits until at least `count` GET requests were seen.
    func gets(atLeast count: Int) async throws -> [HTTPRequest] {
        try await requests(atLeast: count) { $0.method == .get }
    }

    /// Waits until at least `count` write requests were seen.
    func writes(atLeast count: Int) async throws -> [HTTPRequest] {
        try await requests(atLeast: count) { $0.method != .get }
    }

    /// Installs (or with `nil` removes) what the probe does with requests after recording them.
    func answer(with rule: Rule?) {
        self.rule.withLock { $0 = rule }
    }

    func install(on server: InMemoryPostgREST) async {
        await server.setInterceptor { [self] request in
            log.append(request)
            guard let current = rule.withLock({ $0 }) else { return nil }
            return try await current(request)
        }
    }
}

/// A one-shot gate: requests wait at it until the test opens it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// How many tasks wait at the gate now.
    let arrivals = AsyncLog<Int>()

    func wait() async {
        let mustWait = state.withLock { state in !state.open }
        guard mustWait else { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            arrivals.append(1)
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A JSON response the way PostgREST sends one.
func jsonResponse(_ rows: [Row], status: Int = 200) -> HTTPResponse {
    HTTPResponse(
        status: status, headers: ["Content-Type": "application/json"],
        body: JSONText.data(.array(rows.map(\.json))))
}

/// A PostgREST error response.
func errorResponse(
    status: Int, code: String, message: String = "refused", details: String? = nil, hint: String? = nil,
    retryAfter: Int? = nil
) -> HTTPResponse {
    var body: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
    body["details"] = details.map(JSONValue.string) ?? .null
    body["hint"] = hint.map(JSONValue.string) ?? .null
    var headers: HTTPHeaders = ["Content-Type": "application/json"]
    if let retryAfter { headers["Retry-After"] = String(retryAfter) }
    return HTTPResponse(status: status, headers: headers, body: JSONText.data(.object(body)))
}

/// Reads a stream until a value meets `condition`, failing (not hanging) after `seconds`.
func firstValue<S: AsyncSequence & Sendable>(
    of stream: S, within seconds: Double = 30, where condition: @escaping @Sendable (S.Element) -> Bool
) async throws -> S.Element where S.Element: Sendable {
    try await withTimeout(seconds) {
        for try await value in stream where condition(value) { return value }
        throw TimedOut(seconds: seconds)
    }
}

/// Waits until `condition` holds, checking again whenever other tasks have run, failing after
/// `seconds`; for facts no stream reports (a task ended, a sleeper left the clock).
func eventually(
    within seconds: Double = 30, _ condition: @escaping @Sendable () async -> Bool
) async throws {
    try await withTimeout(seconds) {
        while await !condition() {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}

/// Collects a stream's values into an awaitable log, in a task the caller cancels.
func collect<S: AsyncSequence & Sendable>(_ stream: S, into log: AsyncLog<S.Element>) -> Task<Void, Never>
where S.Element: Sendable {
    Task {
        do {
            for try await value in stream { log.append(value) }
        } catch {}
    }
}

extension QuerySnapshot {
    /// The rows' values of one column, as text.
    func column(_ name: String) -> [String] {
        (result?.rows ?? []).map { $0[name]?.rawValue ?? "-" }
    }
}

extension HTTPRequest {
    /// The `Authorization` header.
    var authorization: String? { headers["Authorization"] }

    /// The body's rows, for writes.
    var bodyRows: [Row] {
        guard let body, let json = try? JSONText.parse(body) else { return [] }
        return (try? Row.rows(from: json)) ?? []
    }
}
