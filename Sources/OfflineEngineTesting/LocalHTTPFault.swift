import Foundation
import OfflineEngine

/// What ``LocalHTTPServer/inject(_:times:where:)`` makes an answer meet, as a real network and
/// the proxies in front of a server do.
public enum LocalHTTPFault: Sendable {
    /// The answer is this status with an HTML page (503 from a load balancer, 520 from
    /// Cloudflare), and the handler never sees the request.
    case status(Int)
    /// The handler answers, and the answer is held this long (real time) before it is sent:
    /// a slow answer that writes may overtake.
    case delay(Duration)
    /// The handler answers, and the answer is sent once `release` returns: a slow answer that a
    /// test lets go only after a write overtook it, whatever the machine's load.
    case held(until: @Sendable () async -> Void)
    /// The handler answers, then the connection closes halfway through the body (the head is
    /// sent whole, with a body promised when the answer had none).
    case dropMidBody
    /// The handler answers (a write is applied, its statement committed), then the connection
    /// closes with no answer at all.
    case loseAnswer

    /// A fault waiting for the requests it matches.
    struct Rule {
        let fault: LocalHTTPFault
        var remaining: Int
        let matches: @Sendable (HTTPRequest) -> Bool
    }

    /// A proxy's HTML error page with `status`.
    static func page(_ status: Int) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/html; charset=utf-8"],
            body: Data(
                "<!DOCTYPE html><html><head><title>\(status)</title></head><body><h1>Error \(status)</h1><p>The origin did not answer.</p></body></html>"
                    .utf8))
    }
}
