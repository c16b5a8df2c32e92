import Foundation
import OfflineEngine

/// A PostgREST stand-in that keeps its tables in memory: a transport for the sample, previews
/// and tests, so an app runs with no server to set up.
///
/// It answers reads with `select` (plain columns and `alias:column`), the filters of the
/// PostgREST grammar it can decide exactly (`eq neq gt gte lt lte like ilike in is`, `not.`,
/// `or`/`and` trees), `order`, `limit` and `offset`; and writes: insert, upsert
/// (`on_conflict`, `resolution=merge-duplicates|ignore-duplicates`), update and delete, with
/// `Prefer: return=representation`, counts (`Prefer: count=`, answered in the `Content-Range`
/// every answer carries, as PostgREST's do),
/// `HEAD`, and one-object writes (`Accept: application/vnd.pgrst.object+json`: a write that
/// matched none or several is rolled back with PostgREST's 406). Values compare by their JSON type (numbers as numbers,
/// UUID-shaped strings without regard to case). It is not a database: no embeds, no types, no
/// row-level security.
public actor InMemoryPostgREST: HTTPTransport {
    /// Decides a request before the tables see it: return a response to answer with it, throw
    /// to fail like the network, or return `nil` to let the tables answer.
    public typealias Interceptor = @Sendable (HTTPRequest) async throws -> HTTPResponse?

    private var tables: [String: [Row]]
    private let primaryKeys: PrimaryKeys
    private var interceptor: Interceptor?
    private var reachable = true
    private(set) var requestCount = 0

    /// A server holding `tables` (rows per table name), keyed per table as `primaryKeys` says.
    public init(tables: [String: [Row]] = [:], primaryKeys: [String: [String]] = [:]) {
        self.tables = tables
        self.primaryKeys = PrimaryKeys(primaryKeys)
    }

    /// The rows a table holds now, in insertion order.
    public func rows(of table: String) -> [Row] { tables[table] ?? [] }

    /// Replaces a table's rows.
    public func setRows(_ rows: [Row], of table: String) { tables[table] = rows }

    /// How many requests reached the server (including refused ones).
    public var requestsReceived: Int { requestCount }

    /// Makes every request fail as an unreachable network would, until set back.
    public func setReachable(_ isReachable: Bool) { reachable = isReachable }

    /// Installs (or removes, with `nil`) a hook that sees every request first.
    public func setInterceptor(_ interceptor: Interceptor?) { self.interceptor = interceptor }

    /// Answers one request.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requestCount += 1
        guard reachable else { throw TransportError(kind: .offline) }
        if let interceptor, let response = try await interceptor(request) {
            return response
        }
        guard reachable else { throw TransportError(kind: .offline) }
        do {
            return try answer(request)
        } catch let refusal as Refusal {
            return refusal.response
        } catch is InMemoryFilterMatching.Unsupported {
            return Refusal(status: 400, code: "PGRST100", message: "The stand-in cannot run this filter")
                .response
        }
    }

    // MARK: Answering

    private struct Refusal: Error {
        let response: HTTPResponse

        init(status: Int, code: String, message: String, details: String? = nil) {
            response = PostgrestError(status: status, code: code, message: message, details: details).response
        }
    }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let table = components.path.components(separatedBy: "/rest/v1/").last?.removingPercentEncoding,
            !table.isEmpty
        else {
            throw Refusal(status: 404, code: "PGRST125", message: "Invalid path specified in request URL")
        }
        let parameters = QueryDescription.parameters(components.percentEncodedQueryItems ?? [])
        guard let query = try? QueryDescription(schema: nil, table: table, parameters: parameters) else {
            throw Refusal(status: 400, code: "PGRST100", message: "Failed to parse the query")
        }
        let prefer = request.headers["Prefer"] ?? ""
        let wantsRows = prefer.contains("return=representation")
        let counts = prefer.contains("count=")
        switch request.method {
        case .get, .head:
            guard tables[table] != nil else { throw Self.missingTable }
            let rows = try select(query)
            var unbounded = query
            (unbounded.limit, unbounded.offset) = (nil, nil)
            let total = counts ? try select(unbounded).count : nil
            var response = Self.json(rows.map(\.json), status: 200)
            let first = query.offset ?? 0
            response.headers["Content-Range"] = Self.contentRange(
                lower: first, upper: first + rows.count - 1, total: total)
            if request.method == .head { response.body = Data() }
            return response
        default:
            let saved = tables
            let (written, inserted) = try write(
                request, table: table, query: query, parameters: parameters, prefer: prefer)
            let object = request.headers["Accept"] == "application/vnd.pgrst.object+json"
            if object, written.count != 1 {
                // PostgREST rolls back a write asked for one object that matched none or several.
                tables = saved
                throw Refusal(
                    status: 406, code: "PGRST116",
                    message: "Cannot coerce the result to a single JSON object",
                    details: "The result contains \(written.count) rows")
            }
            // PostgREST: 201 to an insert, 200 to a merge upsert that inserted nothing; 204 to an
            // update or delete, 200 when it asked for its rows.
            let mergedOnly = prefer.contains("resolution=merge-duplicates") && inserted == 0
            let status = request.method == .post ? (mergedOnly ? 200 : 201) : (wantsRows ? 200 : 204)
            var response = HTTPResponse(status: status)
            if wantsRows {
                let projected = project(written, query)
                response =
                    object ? Self.json(projected[0], status: status) : Self.json(projected, status: status)
            }
            // Every write's answer has a range, as PostgREST's `Response.hs` gives it: an update's
            // names the rows it reached, an insert's and a delete's none; the total when counted.
            let total = counts ? written.count : nil
            response.headers["Content-Range"] =
                request.method == .patch
                ? Self.contentRange(lower: 0, upper: written.count - 1, total: total)
                : Self.contentRange(lower: 1, upper: 0, total: total)
            return response
        }
    }

    private func write(
        _ request: HTTPRequest, table: String, query: QueryDescription, parameters: [QueryParameter],
        prefer: String
    ) throws -> (written: [Row], inserted: Int) {
        switch request.method {
        case .post: return try insert(into: table, body: request.body, parameters: parameters, prefer: prefer)
        case .patch: return (try update(table, query: query, body: request.body), 0)
        default: return (try delete(from: table, query: query), 0)
        }
    }

    /// A `Content-Range` value as PostgREST writes one: `lower-upper/total` (`0-9/42`), with `*`
    /// for a range that holds no row or a total of none (`*/0`), and for a total not counted.
    private static func contentRange(lower: Int, upper: Int, total: Int?) -> String {
        let range = total != 0 && lower <= upper ? "\(lower)-\(upper)" : "*"
        return range + "/" + (total.map(String.init) ?? "*")
    }

    private static let missingTable = Refusal(
        status: 404, code: "PGRST205", message: "Could not find the table in the schema cache")

    private static func json(_ rows: [JSONValue], status: Int) -> HTTPResponse {
        json(.array(rows), status: status)
    }

    private static func json(_ value: JSONValue, status: Int) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
            body: JSONText.data(value))
    }

    // MARK: Reads

    private func select(_ query: QueryDescription) throws -> [Row] {
        var rows = try (tables[query.table] ?? []).filter { try matches($0, query.filters) }
        if !query.order.isEmpty {
            rows.sort { left, right in InMemoryOrdering.precedes(left, right, by: query.order) }
        }
        let start = min(query.offset ?? 0, rows.count)
        let end = query.limit.map { min(start + $0, rows.count) } ?? rows.count
        return project(Array(rows[start..<end]), query).compactMap(Row.init(json:))
    }

    private func project(_ rows: [Row], _ query: QueryDescription) -> [JSONValue] {
        guard query.select != "*" else { return rows.map(\.json) }
        let fields = query.select.split(separator: ",").map(String.init).filter { !$0.contains("(") }
        return rows.map { row in
            var projected = [String: JSONValue]()
            for field in fields {
                let parts = field.split(separator: ":", maxSplits: 1).map(String.init)
                let (name, column) = parts.count == 2 ? (parts[0], parts[1]) : (field, field)
                if column == "*" {
                    projected.merge(row.values) { _, new in new }
                } else {
                    projected[name] = row[column] ?? .null
                }
            }
            return .object(projected)
        }
    }

    private func matches(_ row: Row, _ filters: [Filter]) throws -> Bool {
        for filter in filters where try InMemoryFilterMatching.truth(of: filter, on: row) != true {
            return false
        }
        return true
    }

    // MARK: Writes

    private func insert(
        into table: String, body: Data?, parameters: [QueryParameter], prefer: String
    ) throws -> (written: [Row], inserted: Int) {
        guard tables[table] != nil else { throw Self.missingTable }
        var sent = try Self.rows(in: body)
        if let columns = parameters.first(where: { $0.name == "columns" })?.value,
            !prefer.contains("missing=default")
        {
            // PostgREST reads the named columns of each row: one a row leaves out is NULL.
            let names = columns.split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            }
            sent = sent.map { row in
                Row(Dictionary(names.map { ($0, row[$0] ?? .null) }, uniquingKeysWith: { first, _ in first }))
            }
        }
        let conflict = parameters.first { $0.name == "on_conflict" }?.value
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let keyColumns = conflict ?? primaryKeys.columns(for: table)
        let merge = prefer.contains("resolution=merge-duplicates")
        let ignore = prefer.contains("resolution=ignore-duplicates")
        var rows = tables[table] ?? []
        var written = [Row]()
        var inserted = 0
        for row in sent {
            let key = keyColumns.map { row[$0].map(RowKey.normalised) ?? nil }
            let existing =
                key.contains(where: { $0 == nil })
                ? nil
                : rows.firstIndex { candidate in
                    keyColumns.map { candidate[$0].map(RowKey.normalised) ?? nil } == key
                }
            if let existing {
                if merge {
                    rows[existing] = rows[existing].merging(row)
                    written.append(rows[existing])
                } else if !ignore {
                    throw Refusal(
                        status: 409, code: "23505",
                        message: "duplicate key value violates unique constraint \"\(table)_pkey\"",
                        details: "Key already exists.")
                }
            } else {
                rows.append(row)
                written.append(row)
                inserted += 1
            }
        }
        tables[table] = rows
        return (written, inserted)
    }

    private func update(_ table: String, query: QueryDescription, body: Data?) throws -> [Row] {
        guard var rows = tables[table] else { throw Self.missingTable }
        let patch = try Self.rows(in: body).reduce(Row([:])) { $0.merging($1) }
        var written = [Row]()
        for index in rows.indices where try matches(rows[index], query.filters) {
            rows[index] = rows[index].merging(patch)
            written.append(rows[index])
        }
        tables[table] = rows
        return written
    }

    private func delete(from table: String, query: QueryDescription) throws -> [Row] {
        guard let rows = tables[table] else { throw Self.missingTable }
        var kept = [Row]()
        var removed = [Row]()
        for row in rows {
            if try matches(row, query.filters) { removed.append(row) } else { kept.append(row) }
        }
        tables[table] = kept
        return removed
    }

    private static func rows(in body: Data?) throws -> [Row] {
        guard let body, let json = try? JSONText.parse(body), let rows = try? Row.rows(from: json) else {
            throw Refusal(status: 400, code: "PGRST102", message: "Empty or invalid json")
        }
        return rows
    }
}
