import OfflineEngine
import Synchronization

/// A handler that counts the requests it passes on, by method.
final class CountingHandler: HTTPTransport {
    private let inner: any HTTPTransport
    private let counts = Mutex<[HTTPMethod: Int]>([:])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    /// How many `method` requests reached the handler.
    func count(_ method: HTTPMethod) -> Int { counts.withLock { $0[method] ?? 0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        counts.withLock { $0[request.method, default: 0] += 1 }
        return try await inner.send(request)
    }
}
