import Foundation
import OfflineEngine

extension RecordingTransport {
    /// A failure a ``RecordingTransport`` can put in place of a request's answer.
    public enum Fault: Sendable, Hashable {
        /// Answer 503 with a PostgREST JSON error body, without forwarding the request.
        case serviceUnavailable
        /// Answer 520 with an HTML page, as a proxy in front of the server does, without
        /// forwarding the request.
        case htmlPage
        /// Forward the request, so the server applies it, then throw
        /// `TransportError(kind: .connectionLost)` instead of returning its answer.
        case answerLost

        /// The response this fault answers with in place of the server, if it answers at all.
        var response: HTTPResponse? {
            switch self {
            case .serviceUnavailable:
                let body =
                    #"{"code":"PGRST000","message":"Could not connect with the database","#
                    + #""details":null,"hint":null}"#
                return HTTPResponse(
                    status: 503, headers: ["Content-Type": "application/json; charset=utf-8"],
                    body: Data(body.utf8))
            case .htmlPage:
                let page = "<html><head><title>520</title></head><body>Web server error</body></html>"
                return HTTPResponse(
                    status: 520, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(page.utf8))
            case .answerLost:
                return nil
            }
        }
    }

    /// Thrown by ``RecordingTransport/requests(atLeast:where:timeout:clock:)`` when the requests
    /// did not arrive in time.
    public struct TimedOut: Error, Sendable, CustomStringConvertible {
        /// How many matching requests were awaited.
        public var awaited: Int
        /// How many matching requests had arrived when the wait gave up.
        public var seen: Int
        /// How long the wait lasted.
        public var timeout: Duration

        public var description: String {
            "waited \(timeout) for \(awaited) matching requests, saw \(seen)"
        }
    }
}
