import Foundation
import OfflineEngine

/// A request read as PostgREST reads it: the table, the query, the preferences, the rows asked
/// for and whether one object is wanted. Refused here: what the gateway does not translate.
struct GatewayRequest {
    let method: HTTPMethod
    let query: QueryDescription
    let prefer: GatewayPreferences
    let range: GatewayRange
    /// `Accept: application/vnd.pgrst.object+json`: one object, or 406.
    let singular: Bool
    /// `?columns=`: the body's keys a write uses.
    let columns: [String]?
    /// `?on_conflict=`: an upsert's conflict target.
    let onConflict: [String]?
    let body: Data?

    var isRead: Bool { method == .get || method == .head }

    /// Whether the request embeds tables (or scopes parameters to them): the relationships
    /// are read before its statement is written.
    var embeds: Bool { query.select.contains("(") || !query.embedParameters.isEmpty }

    init(_ request: HTTPRequest) throws {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let name = components.path.components(separatedBy: "/rest/v1/").last?.removingPercentEncoding,
            !name.isEmpty, !name.contains("/")
        else {
            throw GatewayRefusal(
                status: 404, code: "PGRST125", message: "Invalid path specified in request URL")
        }
        method = request.method
        let read = method == .get || method == .head
        let schema = request.headers[read ? "Accept-Profile" : "Content-Profile"]
        let parameters = QueryDescription.parameters(components.percentEncodedQueryItems ?? [])
        guard let query = try? QueryDescription(schema: schema, table: name, parameters: parameters) else {
            throw GatewayRefusal(status: 400, code: "PGRST100", message: "Failed to parse the query")
        }
        if let order = parameters.last(where: { $0.name == "order" }) { try Self.checkOrder(order.value) }
        self.query = query
        singular = try Self.wantsSingular(request.headers["Accept"])
        prefer = try GatewayPreferences(request.headers["Prefer"])
        range = try GatewayRange(
            query: query, header: request.method == .get ? request.headers["Range"] : nil)
        if !read, query.limit != nil || query.offset != nil {
            throw GatewaySQL.Unsupported(what: "limit or offset on a write")
        }
        columns = parameters.first { $0.name == "columns" }.map { Self.names($0.value) }
        onConflict = parameters.first { $0.name == "on_conflict" }.map { Self.names($0.value) }
        body = request.body
    }

    /// The answer types PostgREST offers for a table: a JSON array, or one JSON object.
    private static func wantsSingular(_ accept: String?) throws -> Bool {
        guard let accept, !accept.isEmpty else { return false }
        let types = accept.split(separator: ",").map {
            $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        for type in types {
            if type == "application/vnd.pgrst.object+json" || type == "application/vnd.pgrst.object" {
                return true
            }
            if type == "application/json" || type == "*/*" || type == "application/*" { return false }
        }
        // PostgREST offers these too; the gateway does not translate them.
        let offered = [
            "text/csv", "application/geo+json", "application/vnd.pgrst.plan", "application/octet-stream",
        ]
        if types.contains(where: { type in offered.contains { type.hasPrefix($0) } }) {
            throw GatewaySQL.Unsupported(what: "answers other than JSON (Accept: \(accept))")
        }
        throw GatewayRefusal(
            status: 406, code: "PGRST107", message: "None of these media types are available: \(accept)")
    }

    /// `order` as PostgREST's grammar reads it: `column[.asc|.desc][.nullsfirst|.nullslast]`,
    /// comma separated; anything else is its 400 PGRST100. Ordering by an embedded table's
    /// column (`clients(name)`) is not translated.
    static func checkOrder(_ text: String) throws {
        if text.contains("(") { throw GatewaySQL.Unsupported(what: "ordering by an embedded table's column") }
        for term in text.split(separator: ",", omittingEmptySubsequences: false) {
            var pieces = term.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
            if let direction = pieces.first, direction == "asc" || direction == "desc" {
                pieces.removeFirst()
            }
            if let nulls = pieces.first, nulls == "nullsfirst" || nulls == "nullslast" {
                pieces.removeFirst()
            }
            guard pieces.isEmpty, !term.isEmpty else {
                throw GatewayRefusal(
                    status: 400, code: "PGRST100", message: "\"failed to parse order (\(text))\"")
            }
        }
    }

    /// The column names of a `columns` or `on_conflict` list (`"a","b"` or `a,b`).
    private static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
    }
}
