import Foundation
import OfflineEngineTesting
import Synchronization

@testable import OfflineEngine

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
