import Foundation
import OfflineEngine

/// A recorded request as PostgREST reads it, so that two requests spelt differently but read
/// the same compare equal.
struct SentRequest: CustomStringConvertible {
    /// The method.
    var method: HTTPMethod
    /// The URL's path, decoded (`/rest/v1/users`).
    var path: String
    /// The query parameters, sorted: PostgREST does not care about their order.
    var query: [QueryPair]
    /// The header fields by lower-cased name.
    var headers: [String: String]
    /// The `Prefer` header's preferences, split on `,` and trimmed; empty when there is none.
    var prefer: Set<String>
    /// The body as JSON, or `nil` when there is none.
    var body: JSONTree?

    init(_ request: HTTPRequest) throws {
        method = request.method
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        path = components?.path ?? request.url.path
        query = try PostgRESTQueryString.pairs(components?.percentEncodedQuery).sorted()
        var fields: [String: String] = [:]
        for (name, value) in request.headers.dictionary { fields[name.lowercased()] = value }
        headers = fields
        prefer = Set(
            (fields["prefer"] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        body = try request.body.flatMap { $0.isEmpty ? nil : try JSONTree.parse($0) }
    }

    var description: String {
        let text = query.map(\.description).joined(separator: "&")
        return "\(method.rawValue) \(path)?\(text) \(headers) \(body.map(\.description) ?? "no body")"
    }
}
