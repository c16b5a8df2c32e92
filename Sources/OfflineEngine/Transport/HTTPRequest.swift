import Foundation

/// The HTTP methods the engine sends to PostgREST.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// Reads.
    case get = "GET"
    /// Reads without a body.
    case head = "HEAD"
    /// Inserts and upserts.
    case post = "POST"
    /// Updates.
    case patch = "PATCH"
    /// Deletes.
    case delete = "DELETE"

    /// Whether the method only reads, so sending it twice is harmless.
    public var isSafe: Bool { self == .get || self == .head }
}

/// One HTTP request, fully built, ready for an ``HTTPTransport``.
public struct HTTPRequest: Sendable, Hashable {
    /// The method.
    public var method: HTTPMethod
    /// The full URL, query included.
    public var url: URL
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: Data?
    /// Whether a read that fails to reach the server is tried again (reads only; writes never
    /// are).
    public var retriesTransportFailures: Bool

    /// A request from its parts.
    public init(
        method: HTTPMethod, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil,
        retriesTransportFailures: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.retriesTransportFailures = retriesTransportFailures
    }
}
