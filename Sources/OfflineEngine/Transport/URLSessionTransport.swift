import Foundation

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
            (data, response) = try await session.data(for: urlRequest)
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
