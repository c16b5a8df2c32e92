import Foundation

/// The server answered with something the engine cannot read: a non-JSON body (an HTML page
/// from a proxy, such as Cloudflare's 520 page), malformed JSON where JSON was expected, or a
/// success that is not the answer PostgREST gives the request (an empty `200` to an insert).
///
/// The raw body stays in ``body`` for logs; ``description`` names only the status and the kind
/// of content.
public struct UnexpectedResponseError: Error, Sendable, Hashable, CustomStringConvertible,
    LocalizedError
{
    /// Why the answer could not be read.
    public enum Reason: String, Sendable, Hashable {
        /// The body is not JSON (HTML, plain text, empty where rows were expected).
        case notJSON
        /// The body claims or looks like JSON but does not parse, or is not the expected shape.
        case malformedJSON
        /// A success whose status, headers or body are not what PostgREST answers the request
        /// with (an empty `200` from a proxy to an insert, a `204` where rows were asked for, a
        /// write's `201` or `204` without the `Content-Range` PostgREST always sends: a
        /// stand-in transport in tests answers writes with one, as `InMemoryPostgREST` does).
        case notPostgRESTAnswer
    }

    /// The HTTP status.
    public var status: Int
    /// The media type the server declared (`text/html`), if any.
    public var contentType: String?
    /// Why the answer could not be read.
    public var reason: Reason
    /// The raw body, for logs only.
    public var body: Data
    /// The wait the server asked for in `Retry-After`, if any.
    public var retryAfter: Duration?

    /// An error from its parts.
    public init(
        status: Int, contentType: String?, reason: Reason, body: Data = Data(), retryAfter: Duration? = nil
    ) {
        self.status = status
        self.contentType = contentType
        self.reason = reason
        self.body = body
        self.retryAfter = retryAfter
    }

    public var description: String {
        let what: String
        switch reason {
        case .notJSON:
            switch Self.safeMediaType(contentType) {
            case "text/html"?: what = "an HTML page instead of data"
            case let type?: what = "content of type \(type) instead of JSON data"
            case nil: what = "a body that is not JSON data"
            }
        case .malformedJSON:
            what = "malformed JSON"
        case .notPostgRESTAnswer:
            return
                "The server answered with HTTP \(status), which is not the database's answer to this request."
        }
        let outcome = (200..<300).contains(status) ? "The server answered" : "The server failed and answered"
        return "\(outcome) with \(what) (HTTP \(status))."
    }

    public var errorDescription: String? { description }

    /// Whether trying again later may work: 408, 429 and 5xx.
    public var isRetryable: Bool { ServerErrorWording.isRetryable(status: status) }

    /// Whether the server refused the credentials (401).
    public var isAuthenticationFailure: Bool { status == 401 }

    /// A media type fit to show: token characters and one `/` only.
    private static func safeMediaType(_ type: String?) -> String? {
        guard let type, type.count <= 64 else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-/")
        guard type.lowercased().allSatisfy({ allowed.contains($0) }),
            type.filter({ $0 == "/" }).count == 1
        else { return nil }
        return type.lowercased()
    }
}
