import Foundation
import OfflineEngine

/// One request as one SQL statement whose single result row holds the answer's rows as JSON
/// text and their count (and, for a read with `Prefer: count=exact`, the total).
struct GatewayStatement {
    private(set) var sql = ""
    private var builder = GatewaySQL()
    private var prefer: Set<String>
    private let query: QueryDescription
    private var offset = 0
    private var counts = false
    /// An upsert's conflict columns, or `nil` when the table's primary key must be looked up.
    private var conflictColumns: [String]?
    private var upsertRows: (head: String, columns: [String], values: String)?
    /// The select list the answer's rows are made with.
    private let projection: String

    var parameters: [String?] { builder.parameters }

    init(_ request: HTTPRequest, schema: String?) throws {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let name = components.path.components(separatedBy: "/rest/v1/").last?.removingPercentEncoding,
            !name.isEmpty, !name.contains("/")
        else {
            throw GatewayRefusal(
                status: 404, code: "PGRST125", message: "Invalid path specified in request URL")
        }
        let parameters = QueryDescription.parameters(components.percentEncodedQueryItems ?? [])
        guard let query = try? QueryDescription(schema: schema, table: name, parameters: parameters) else {
            throw GatewayRefusal(status: 400, code: "PGRST100", message: "Failed to parse the query")
        }
        guard query.embedParameters.isEmpty, !query.select.contains("(") else {
            throw GatewaySQL.Unsupported(what: "embedded tables")
        }
        let accept = request.headers["Accept"] ?? "application/json"
        guard accept.contains("application/json") || accept.contains("*/*"), !accept.contains("vnd.pgrst")
        else {
            throw GatewaySQL.Unsupported(what: "answers other than a JSON array")
        }
        self.query = query
        projection = try GatewaySQL.selectList(query.select)
        prefer = Set(
            (request.headers["Prefer"] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        // Preferences that would change what is committed or counted are refused, not ignored.
        if let refused = prefer.first(where: {
            $0.hasPrefix("tx=") || $0.hasPrefix("max-affected") || $0 == "handling=strict"
        }) {
            throw GatewaySQL.Unsupported(what: "Prefer: \(refused)")
        }
        let table = GatewaySQL.table(query.table, schema: schema)
        let columns = parameters.first { $0.name == "columns" }?.value
        let onConflict = parameters.first { $0.name == "on_conflict" }?.value
        switch request.method {
        case .get, .head:
            try read(table, range: request.headers["Range"])
        case .post:
            try insert(into: table, body: request.body, columns: columns, onConflict: onConflict)
        case .patch:
            try update(table, body: request.body)
        case .delete:
            let condition = try builder.whereClause(query.filters)
            sql = returning("DELETE FROM \(table) WHERE \(condition) RETURNING *")
        }
    }

    // MARK: Statements

    private mutating func read(_ table: String, range: String?) throws {
        offset = query.offset ?? 0
        var limit = query.limit
        if let range {
            // A range it cannot read is refused: ignored, it would answer with every row.
            guard let (first, last) = Self.range(range) else {
                throw GatewaySQL.Unsupported(what: "a Range header other than first-last")
            }
            offset = first
            limit = last.map { $0 - first + 1 }
        }
        let condition = try builder.whereClause(query.filters)
        var inner = "SELECT \(projection) FROM \(table) WHERE \(condition)"
        inner += try GatewaySQL.orderClause(query.order)
        if let limit { inner += " LIMIT \(max(limit, 0))" }
        if offset > 0 { inner += " OFFSET \(offset)" }
        counts = prefer.contains("count=exact")
        let total = counts ? "(SELECT count(*) FROM \(table) WHERE \(condition))::text" : "NULL"
        sql = "SELECT coalesce(json_agg(_t), '[]')::text, count(*)::text, \(total) FROM (\(inner)) _t"
    }

    private mutating func insert(into table: String, body: Data?, columns: String?, onConflict: String?)
        throws
    {
        let rows = try Self.objects(body)
        let keys: [String]
        if let columns {
            keys = Self.names(columns)
        } else {
            keys = rows.first.map { $0.keys.sorted() } ?? []
            guard rows.allSatisfy({ Set($0.keys) == Set(keys) }) else {
                throw GatewayRefusal(status: 400, code: "PGRST102", message: "All object keys must match")
            }
        }
        guard !keys.isEmpty, !rows.isEmpty else {
            throw GatewaySQL.Unsupported(what: "an insert without columns")
        }
        let missing = prefer.contains("missing=default") ? "DEFAULT" : "NULL"
        var tuples: [String] = []
        for row in rows {
            let cells = keys.map { key in row[key].map { builder.bind(Self.text(of: $0)) } ?? missing }
            tuples.append("(" + cells.joined(separator: ", ") + ")")
        }
        var quoted: [String] = []
        for key in keys { quoted.append(try GatewaySQL.column(key)) }
        let head = "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES "
        let values = tuples.joined(separator: ", ")
        if prefer.contains("resolution=merge-duplicates") || prefer.contains("resolution=ignore-duplicates") {
            conflictColumns = onConflict.map(Self.names)
            upsertRows = (head, keys, values)
            sql = ""
        } else {
            sql = returning(head + values + " RETURNING *")
        }
    }

    private mutating func update(_ table: String, body: Data?) throws {
        guard let body, case .object(let patch)? = try? JSONText.parse(body), !patch.isEmpty else {
            throw GatewaySQL.Unsupported(what: "an update without a JSON object of columns")
        }
        var assignments: [String] = []
        for (key, value) in patch.sorted(by: { $0.key < $1.key }) {
            assignments.append("\(try GatewaySQL.column(key)) = \(builder.bind(Self.text(of: value)))")
        }
        let condition = try builder.whereClause(query.filters)
        sql = returning(
            "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(condition) RETURNING *")
    }

    /// For an upsert: its conflict target (`on_conflict`, or the table's primary key read in the
    /// request's transaction), then its statement.
    mutating func resolveConflictTarget(
        _ execute: (String, [String?]) throws(PostgresError) -> [[String?]]
    ) throws(PostgresError) {
        guard let (head, keys, values) = upsertRows else { return }
        var target = conflictColumns ?? []
        if conflictColumns == nil {
            let name = GatewaySQL.table(query.table, schema: query.schema)
            target = try execute(
                """
                SELECT a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY a.attnum
                """, [name]
            ).compactMap { $0.first ?? nil }
        }
        let conflict = target.map(GatewaySQL.identifier).joined(separator: ", ")
        let action: String
        if prefer.contains("resolution=ignore-duplicates") {
            action = "DO NOTHING"
        } else {
            let updated = keys.filter { !target.contains($0) }.map(GatewaySQL.identifier)
            let sets = (updated.isEmpty ? target.map(GatewaySQL.identifier) : updated).map {
                "\($0) = EXCLUDED.\($0)"
            }
            action = "DO UPDATE SET " + sets.joined(separator: ", ")
        }
        sql = returning(head + values + " ON CONFLICT (\(conflict)) \(action) RETURNING *")
    }

    /// A write statement whose returned rows (projected by `select`) come back as JSON.
    private func returning(_ write: String) -> String {
        "WITH _w AS (\(write)) SELECT coalesce(json_agg(_t), '[]')::text, count(*)::text, NULL "
            + "FROM (SELECT \(projection) FROM _w) _t"
    }

    // MARK: Answer

    /// The HTTP answer from the statement's result row.
    func response(_ row: [String?], method: HTTPMethod) -> HTTPResponse {
        let json = Data(((row.first ?? nil) ?? "[]").utf8)
        let count = row.count > 1 ? Int(row[1] ?? "0") ?? 0 : 0
        let total = row.count > 2 ? row[2].flatMap { Int($0) } : nil
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]
        let representation = prefer.contains("return=representation")
        switch method {
        case .get, .head:
            let span = count > 0 ? "\(offset)-\(offset + count - 1)" : "*"
            headers["Content-Range"] = "\(span)/\(total.map(String.init) ?? "*")"
            let partial = total.map { count < $0 && (count > 0 || offset > 0) } ?? false
            return HTTPResponse(
                status: partial ? 206 : 200, headers: headers, body: method == .head ? Data() : json)
        case .post:
            headers["Content-Range"] = "*/\(count)"
            return HTTPResponse(status: 201, headers: headers, body: representation ? json : Data())
        case .patch, .delete:
            headers["Content-Range"] = count > 0 ? "0-\(count - 1)/*" : "*/*"
            return representation
                ? HTTPResponse(status: 200, headers: headers, body: json)
                : HTTPResponse(status: 204, headers: headers)
        }
    }

    // MARK: Helpers

    /// The objects of an insert's body (one object, or an array of them).
    private static func objects(_ body: Data?) throws -> [[String: JSONValue]] {
        guard let body, let value = try? JSONText.parse(body) else {
            throw GatewayRefusal(status: 400, code: "PGRST102", message: "Empty or invalid json")
        }
        switch value {
        case .object(let object): return [object]
        case .array(let items):
            return try items.map { item in
                guard case .object(let object) = item else {
                    throw GatewayRefusal(status: 400, code: "PGRST102", message: "All object keys must match")
                }
                return object
            }
        default: throw GatewayRefusal(status: 400, code: "PGRST102", message: "Empty or invalid json")
        }
    }

    /// A JSON value as the text PostgreSQL's input function for the column reads (`nil`: NULL).
    private static func text(of value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.description
        case .array, .object: return JSONText.string(value)
        }
    }

    /// The column names of a `columns` or `on_conflict` list (`"a","b"` or `a,b`).
    private static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
    }

    /// `Range: 0-19` (or `10-`) as its first and last index.
    private static func range(_ header: String) -> (Int, Int?)? {
        let text = header.hasPrefix("items=") ? String(header.dropFirst(6)) : header
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first >= 0 else { return nil }
        if parts[1].isEmpty { return (first, nil) }
        guard let last = Int(parts[1]), last >= first else { return nil }
        return (first, last)
    }
}
