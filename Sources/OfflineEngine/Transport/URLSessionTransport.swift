import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests with `URLSession`, the default way the engine reaches the server.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport over `session` (the shared session by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends the request with `URLSession` and maps `URLError` into ``TransportError``.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers.dictionary {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await answer(to: urlRequest)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError {
            if error.code == .cancelled, Task.isCancelled { throw CancellationError() }
            throw Self.transportError(error)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw TransportError(kind: .other, underlyingDescription: String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError(kind: .badResponse)
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    #if canImport(FoundationNetworking)
        /// The answer to `request`. On Linux a cancelled send is abandoned, not cancelled: its
        /// result is dropped and its task runs to its end, because cancelling a task whose answer
        /// is being delivered stops the process (swift-corelibs-foundation's `URLSession`:
        /// "Trying to access a behaviour for a task that in not in the registry", seen in this
        /// project's end-to-end tests).
        private func answer(to request: URLRequest) async throws -> (Data, URLResponse) {
            let waiting = Mutex(AbandonableSend.idle)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let start = waiting.withLock { state -> Bool in
                        guard case .idle = state else { return false }
                        state = .waiting(continuation)
                        return true
                    }
                    guard start else { return continuation.resume(throwing: CancellationError()) }
                    session.dataTask(with: request) { data, response, error in
                        let waiter = waiting.withLock { $0.finish() }
                        if let error {
                            waiter?.resume(throwing: error)
                        } else if let data, let response {
                            waiter?.resume(returning: (data, response))
                        } else {
                            waiter?.resume(throwing: URLError(.badServerResponse))
                        }
                    }.resume()
                }
            } onCancel: {
                waiting.withLock { $0.cancel() }?.resume(throwing: CancellationError())
            }
        }
    #else
        private func answer(to request: URLRequest) async throws -> (Data, URLResponse) {
            try await session.data(for: request)
        }
    #endif

    /// The engine's kind for a `URLError`.
    static func transportError(_ error: URLError) -> TransportError {
        let kind: TransportError.Kind
        switch error.code {
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            kind = .offline
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed:
            kind = .cannotConnect
        case .networkConnectionLost:
            kind = .connectionLost
        case .timedOut:
            kind = .timedOut
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            kind = .secureConnectionFailed
        case .badServerResponse, .cannotParseResponse:
            kind = .badResponse
        default:
            kind = .other
        }
        return TransportError(
            kind: kind, underlyingCode: error.code.rawValue, underlyingDescription: error.localizedDescription
        )
    }
}

#if canImport(FoundationNetworking)
    /// Where an abandonable send stands: its caller resumed exactly once, by the answer or by
    /// cancellation, whichever comes first.
    private enum AbandonableSend {
        case idle
        case waiting(CheckedContinuation<(Data, URLResponse), any Error>)
        case cancelled
        case finished

        /// The caller to resume with the answer, if it still waits.
        mutating func finish() -> CheckedContinuation<(Data, URLResponse), any Error>? {
            defer { self = .finished }
            if case .waiting(let continuation) = self { return continuation }
            return nil
        }

        /// The caller to resume with cancellation, if it still waits; a send not started yet
        /// will not start.
        mutating func cancel() -> CheckedContinuation<(Data, URLResponse), any Error>? {
            switch self {
            case .idle:
                self = .cancelled
                return nil
            case .waiting(let continuation):
                self = .finished
                return continuation
            case .cancelled, .finished:
                return nil
            }
        }
    }
#endif
