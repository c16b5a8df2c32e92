import Foundation
import OfflineEngineTesting
import Synchronization

@testable import OfflineEngine

/// A server the test can make fail or hold: while ``failing`` holds, every request gets
/// PostgREST's 503 instead of reaching the server; a request ``hold`` names a gate for waits at
/// it before it goes on. Every request is logged first.
final class FailableTransport: HTTPTransport {
    let server: any HTTPTransport
    /// Every request sent, in order.
    let requests = AsyncLog<HTTPRequest>()
    private let fails = Mutex(false)
    private let holds = Mutex<(@Sendable (HTTPRequest) -> Gate?)?>(nil)

    /// The gate a request waits at before it goes on (`nil`: none).
    var hold: (@Sendable (HTTPRequest) -> Gate?)? {
        get { holds.withLock { $0 } }
        set { holds.withLock { $0 = newValue } }
    }

    init(server: any HTTPTransport) {
        self.server = server
    }

    /// Whether the server answers every request with a 503 (the network is up, the server fails).
    var failing: Bool {
        get { fails.withLock { $0 } }
        set { fails.withLock { $0 = newValue } }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        if let gate = hold?(request) { await gate.wait() }
        if failing {
            return errorResponse(status: 503, code: "PGRST002", message: "schema cache unavailable")
        }
        return try await server.send(request)
    }
}
