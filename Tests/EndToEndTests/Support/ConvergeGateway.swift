import ConvergeSoak
import Foundation
import OfflineEngine
import PostgresGateway
import Synchronization

/// The gateway the converge soak's server answers with, and the soak's faults that live in the
/// server: a restart (a new connection to PostgreSQL), tokens expired early (refused as PostgREST
/// refuses an expired token), and a record of which user's token every write request carried.
final class ConvergeGateway: HTTPTransport {
    /// The user of a write request's token and the words of its URL and body (ids and tags).
    struct WriteRequest: Sendable {
        var user: String?
        var words: Set<String>
    }

    private let connectionInfo: String
    private let gateway: Mutex<PostgresGateway>
    /// Whether faults are on; healing turns them off.
    private let faulty = Mutex(true)
    /// Tokens issued before this time (seconds since 1970) are refused while faults are on.
    private let expiredBefore = Mutex(0.0)
    private let requests = Mutex<[WriteRequest]>([])
    /// Where requests are answered, one at a time (the gateway's connection runs one statement
    /// at a time anyway).
    private let queue = DispatchQueue(label: "converge-gateway")

    init(connectionInfo: String) throws {
        self.connectionInfo = connectionInfo
        gateway = Mutex(try PostgresGateway(connectionInfo: connectionInfo))
    }

    /// Whether faults are on.
    var isFaulty: Bool { faulty.withLock { $0 } }

    /// Faults off: tokens are refused only once their own `exp` has passed.
    func heal() { faulty.withLock { $0 = false } }

    /// Starts over on a new connection to PostgreSQL, as a restarted PostgREST does.
    func restart() throws {
        let fresh = try PostgresGateway(connectionInfo: connectionInfo)
        gateway.withLock { $0 = fresh }
    }

    /// Every token issued until now is refused as expired (while faults are on).
    func expireTokens() {
        let now = Date().timeIntervalSince1970
        expiredBefore.withLock { $0 = now }
    }

    /// The write requests that reached the server.
    var writeRequests: [WriteRequest] { requests.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let authorization = request.headers["Authorization"] ?? ""
        let claims = ConvergeToken.claims(of: String(authorization.dropFirst("Bearer ".count)))
        if let claims, isFaulty, claims.issued < expiredBefore.withLock({ $0 }) {
            return PostgrestError(status: 401, code: "PGRST303", message: "JWT expired").response
        }
        if !request.method.isSafe {
            let text =
                (request.url.absoluteString.removingPercentEncoding ?? "") + " "
                + String(decoding: request.body ?? Data(), as: UTF8.self)
            let words = text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(
                String.init)
            requests.withLock { $0.append(WriteRequest(user: claims?.user, words: Set(words))) }
        }
        // On a thread of its own: four clients' requests would otherwise hold the cooperative
        // threads in libpq's waits, and the chaos and the server's answers wait behind them.
        let gateway = gateway.withLock { $0 }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try gateway.respond(to: request) }) }
        }
    }
}
