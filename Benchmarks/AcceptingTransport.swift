import Foundation
import OfflineEngine

/// A transport that answers every write as PostgREST accepts it, at once and without a table
/// behind it, and passes reads to `reads`: a baseline of accepted online writes then measures
/// the engine's own work of laying them, not a stand-in server's insert into a large table.
struct AcceptingTransport: HTTPTransport {
    let reads: any HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .post else { return try await reads.send(request) }
        let prefer = request.headers["Prefer"] ?? ""
        guard prefer.contains("return=representation"), let body = request.body else {
            return HTTPResponse(status: 201, headers: ["Content-Range": "*/*"])
        }
        // The rows sent, as an array: what PostgREST returns for an insert asking for them.
        let rows = body.first == UInt8(ascii: "[") ? body : Data("[".utf8) + body + Data("]".utf8)
        var headers = HTTPHeaders()
        headers["Content-Type"] = "application/json; charset=utf-8"
        headers["Content-Range"] = "*/*"
        return HTTPResponse(status: 201, headers: headers, body: rows)
    }
}
