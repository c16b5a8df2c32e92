import Foundation
import OfflineEngine

/// Answers every request as PostgREST would accept it, so that a test sees the one request a
/// builder call sends and the engine's run of it ends without an error or a queued retry.
///
/// Reads get `readRows`, calls of functions `callResult`, and writes that ask for their rows
/// (`return=representation`) get back the rows they sent (one object when `Accept` asks for
/// one). It checks nothing itself: the tests compare the recorded request.
struct StubPostgREST: HTTPTransport {
    /// The JSON array a `GET` is answered with.
    var readRows = "[]"
    /// The JSON a call of `/rpc/<function>` is answered with.
    var callResult = "null"

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.url.path.contains("/rest/v1/rpc/") {
            return Self.json(callResult, status: 200)
        }
        switch request.method {
        case .head:
            return HTTPResponse(status: 200, headers: ["Content-Range": "*/0"])
        case .get:
            return Self.json(readRows, status: 200)
        case .post, .patch, .delete:
            return try written(request)
        }
    }

    /// PostgREST's answer to a write: nothing for `return=minimal`, else the rows sent.
    private func written(_ request: HTTPRequest) throws -> HTTPResponse {
        let status = request.method == .post ? 201 : 200
        guard request.headers["Prefer"]?.contains("return=representation") == true else {
            return HTTPResponse(
                status: request.method == .post ? 201 : 204, headers: ["Content-Range": "*/1"])
        }
        var rows: [Any] = [["id": 1]]
        if let body = request.body {
            let sent = try JSONSerialization.jsonObject(with: body)
            rows = (sent as? [Any]) ?? [sent]
        }
        let one = request.headers["Accept"] == "application/vnd.pgrst.object+json"
        let data = try JSONSerialization.data(withJSONObject: one ? rows[0] : rows)
        let range = rows.isEmpty ? "*/*" : "0-\(rows.count - 1)/*"
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8", "Content-Range": range], body: data)
    }

    private static func json(_ text: String, status: Int) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
            body: Data(text.utf8))
    }
}
