import Foundation

/// A request that got no HTTP response: the network is down, the server could not be reached,
/// the connection broke or timed out.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What went wrong, in broad terms.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The device has no network.
        case offline
        /// The server's name could not be resolved or it refused the connection.
        case cannotConnect
        /// The connection broke before the answer arrived.
        case connectionLost
        /// No answer came in time.
        case timedOut
        /// The secure connection could not be set up.
        case secureConnectionFailed
        /// The server's answer was not valid HTTP.
        case badResponse
        /// Any other failure.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// The platform's error code (such as a `URLError` code), for logs.
    public var underlyingCode: Int?
    /// The platform's own description, for logs only: it may contain the URL.
    public var underlyingDescription: String?

    /// A transport error from its parts.
    public init(kind: Kind, underlyingCode: Int? = nil, underlyingDescription: String? = nil) {
        self.kind = kind
        self.underlyingCode = underlyingCode
        self.underlyingDescription = underlyingDescription
    }

    public var description: String {
        switch kind {
        case .offline: return "The request could not be sent: the device is offline."
        case .cannotConnect: return "The request could not be sent: the server could not be reached."
        case .connectionLost: return "The connection to the server was lost before it answered."
        case .timedOut: return "The server did not answer in time."
        case .secureConnectionFailed:
            return "The request could not be sent: a secure connection to the server failed."
        case .badResponse: return "The server's answer was not a valid HTTP response."
        case .other: return "The request could not reach the server."
        }
    }

    public var errorDescription: String? { description }

    /// Always true: a request that got no answer may succeed later.
    public var isRetryable: Bool { true }

    /// Always false: no server judged the credentials.
    public var isAuthenticationFailure: Bool { false }

    /// Always `nil`: no server asked for a wait.
    public var retryAfter: Duration? { nil }
}
