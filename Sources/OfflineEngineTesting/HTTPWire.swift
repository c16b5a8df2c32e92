import Foundation
import OfflineEngine

/// HTTP/1.1 as the local server reads and writes it: one request per connection, a body of
/// `Content-Length` bytes (what `URLSession` sends), an answer with its length and
/// `Connection: close`.
enum HTTPWire {
    /// The most a request's head may take; a longer one is refused.
    static let headLimit = 64 * 1_024
    /// The most a request's body may take; a longer one is refused.
    static let bodyLimit = 16 * 1_024 * 1_024

    /// What reading a connection's bytes so far gives.
    enum Reading: Equatable {
        /// More bytes are needed.
        case incomplete
        /// A whole request.
        case request(HTTPRequest)
        /// Bytes that are not a request this server reads; answered with 400.
        case malformed(String)
    }

    /// Reads one request from `bytes`, the connection's bytes so far; `base` gives the request
    /// target its scheme and host.
    static func read(_ bytes: [UInt8], base: URL) -> Reading {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.firstRange(of: separator)?.lowerBound else {
            return bytes.count > headLimit ? .malformed("the request head is too long") : .incomplete
        }
        guard let head = String(bytes: bytes[..<headEnd], encoding: .utf8) else {
            return .malformed("the request head is not UTF-8")
        }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."),
            let method = HTTPMethod(rawValue: String(requestLine[0])),
            requestLine[1].hasPrefix("/"),
            let url = URL(string: base.absoluteString + requestLine[1])
        else { return .malformed("the request line is not one this server reads") }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                return .malformed("a header line has no colon")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        if headers["Transfer-Encoding"] != nil { return .malformed("chunked bodies are not read") }
        let length = headers["Content-Length"].map { Int($0) } ?? 0
        guard let length, length >= 0, length <= bodyLimit else {
            return .malformed("the Content-Length is not one this server reads")
        }
        let bodyStart = headEnd + separator.count
        guard bytes.count - bodyStart >= length else { return .incomplete }
        let body = length > 0 ? Data(bytes[bodyStart..<(bodyStart + length)]) : nil
        return .request(HTTPRequest(method: method, url: url, headers: headers, body: body))
    }

    /// The bytes of `response`, closing the connection after it.
    static func bytes(of response: HTTPResponse) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers.dictionary.sorted(by: { $0.key < $1.key })
        where !["content-length", "connection", "transfer-encoding"].contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + Array(response.body)
    }

    /// A reason phrase for the status line (clients read the status number only).
    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
