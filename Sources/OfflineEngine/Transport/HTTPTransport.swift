import Foundation

/// Sends HTTP requests; the engine talks to the network only through this, so tests and apps
/// can supply their own.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the server's response, whatever its status; throws a
    /// ``TransportError`` when no response arrived, or `CancellationError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
