import Foundation

/// Where the API lives and the key that opens it: the REST root is `<url>/rest/v1`.
struct RESTEndpoint: Sendable, Hashable {
    /// The project URL, such as `https://abc.supabase.co`.
    var url: URL
    /// The project's API key (the anon key), sent as `apikey`.
    var apiKey: String

    /// `<url>/rest/v1` without a trailing slash.
    var restRoot: String {
        var root = url.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        return root + "/rest/v1"
    }
}

/// Builds the HTTP requests for reads and writes. Pure: no I/O; bad input throws ``QueryError``.
enum RequestBuilder {
    // MARK: Reads

    /// The query parameters of a read, in a stable order: select, filters, order, limit, offset,
    /// embed parameters.
    static func queryParameters(for query: QueryDescription) throws -> [QueryParameter] {
        try validate(text: query.select)
        var parameters = [QueryParameter(name: "select", value: query.select)]
        parameters += try query.filters.map(FilterRendering.parameter(for:))
        if !query.order.isEmpty {
            for term in query.order { try validate(orderColumn: term.column) }
            parameters.append(QueryParameter(name: "order", value: orderText(query.order)))
        }
        if let limit = query.limit {
            guard limit >= 0 else { throw QueryError(.invalidRange) }
            parameters.append(QueryParameter(name: "limit", value: String(limit)))
        }
        if let offset = query.offset {
            guard offset >= 0 else { throw QueryError(.invalidRange) }
            parameters.append(QueryParameter(name: "offset", value: String(offset)))
        }
        for parameter in query.embedParameters {
            guard !parameter.name.isEmpty else { throw QueryError(.invalidColumnName) }
            try validate(text: parameter.name)
            try validate(text: parameter.value)
            parameters.append(parameter)
        }
        return parameters
    }

    /// The GET request for a read (`HEAD` for a count alone, with `Prefer: count=` when a count
    /// is asked).
    static func request(
        for query: QueryDescription, endpoint: RESTEndpoint, accessToken: String?,
        options: ReadOptions = ReadOptions()
    ) throws -> HTTPRequest {
        let url = try url(endpoint: endpoint, table: query.table, parameters: queryParameters(for: query))
        var headers = try baseHeaders(endpoint: endpoint, accessToken: accessToken)
        if let profile = try profile(query.schema) { headers["Accept-Profile"] = profile }
        if let count = options.count { headers["Prefer"] = "count=" + count.rawValue }
        return HTTPRequest(method: options.head ? .head : .get, url: url, headers: headers)
    }

    /// `a.asc.nullslast,b.desc`.
    static func orderText(_ terms: [OrderTerm]) -> String {
        terms.map { term in
            var text = term.column + (term.ascending ? ".asc" : ".desc")
            if let nullsFirst = term.nullsFirst { text += nullsFirst ? ".nullsfirst" : ".nullslast" }
            return text
        }.joined(separator: ",")
    }

    // MARK: Writes

    /// The query parameters of a write: `columns` (several rows), `on_conflict` (upsert),
    /// filters, `select` (when the rows are asked back).
    static func queryParameters(for mutation: Mutation) throws -> [QueryParameter] {
        var parameters: [QueryParameter] = []
        switch mutation.operation {
        case .insert, .upsert:
            guard !mutation.rows.isEmpty else { throw QueryError(.noRows) }
            if mutation.rows.count > 1 {
                let keys = Set(mutation.sentRows.flatMap(\.values.keys)).sorted()
                for key in keys { try validate(text: key) }
                let columns = keys.map(FilterRendering.quoted).joined(separator: ",")
                parameters.append(QueryParameter(name: "columns", value: columns))
            }
            if mutation.operation == .upsert, let conflict = mutation.onConflict, !conflict.isEmpty {
                for column in conflict { try validate(text: column) }
                parameters.append(QueryParameter(name: "on_conflict", value: conflict.joined(separator: ",")))
            }
        case .update:
            guard !mutation.rows.isEmpty else { throw QueryError(.noRows) }
            guard mutation.rows.count == 1 else { throw QueryError(.updateNeedsOneRow) }
        case .delete:
            break
        }
        parameters += try mutation.filters.map(FilterRendering.parameter(for:))
        if let returning = mutation.returning {
            try validate(text: returning)
            parameters.append(QueryParameter(name: "select", value: returning))
        }
        return parameters
    }

    /// The `Prefer` header of a write: resolution, return, missing, and count when asked.
    static func preferHeader(for mutation: Mutation, count: CountOption? = nil) -> String {
        var parts: [String] = []
        if mutation.operation == .upsert {
            parts.append(
                mutation.ignoreDuplicates ? "resolution=ignore-duplicates" : "resolution=merge-duplicates")
        }
        parts.append(mutation.returning == nil ? "return=minimal" : "return=representation")
        if mutation.useDefaultForMissing && (mutation.operation == .insert || mutation.operation == .upsert) {
            parts.append("missing=default")
        }
        if let count {
            parts.append("count=" + count.rawValue)
        } else if mutation.expectsRows, mutation.operation == .update || mutation.operation == .delete {
            // How many rows it reached decides a conflict.
            parts.append("count=exact")
        }
        return parts.joined(separator: ",")
    }

    /// Refuses what ``request(for:endpoint:accessToken:options:)`` refuses, without building the
    /// request (no body is encoded): a write made offline is checked before it is queued, and
    /// nothing that can never be sent is kept. The URL itself is not built: its table and
    /// parameters are percent-encoded (only unreserved characters stay), so once they pass, it
    /// always parses (building it was about a twentieth of an offline `execute()`).
    static func check(_ mutation: Mutation, endpoint: RESTEndpoint) throws {
        guard mutation.isReadable else { throw StoredWriteUnreadable() }
        try validate(table: mutation.table)
        _ = try queryParameters(for: mutation)
        _ = try profile(mutation.schema)
    }

    /// The POST/PATCH/DELETE request for a write.
    static func request(
        for mutation: Mutation, endpoint: RESTEndpoint, accessToken: String?,
        options: WriteOptions = WriteOptions()
    ) throws -> HTTPRequest {
        // A write whose stored bytes could not be read has no rows or filters to send: sent as
        // it stands, a DELETE would reach every row.
        guard mutation.isReadable else { throw StoredWriteUnreadable() }
        let parameters = try queryParameters(for: mutation)
        let url = try url(endpoint: endpoint, table: mutation.table, parameters: parameters)
        var headers = try baseHeaders(endpoint: endpoint, accessToken: accessToken)
        headers["Prefer"] = preferHeader(for: mutation, count: options.count)
        // One object: PostgREST rolls the write back when it matched several (or, for `single`,
        // none).
        if options.shape != .rows { headers["Accept"] = "application/vnd.pgrst.object+json" }
        if let profile = try profile(mutation.schema) { headers["Content-Profile"] = profile }
        let method: HTTPMethod
        var body: Data?
        switch mutation.operation {
        case .insert, .upsert:
            method = .post
            // Values made on the device to be shown only stay on the device.
            body = JSONText.data(.array(mutation.sentRows.map(\.json)))
        case .update:
            method = .patch
            body = mutation.rows.first.map { JSONText.data($0.json) }
        case .delete:
            method = .delete
        }
        if body != nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(
            method: method, url: url, headers: headers, body: body, retriesTransportFailures: false)
    }

    // MARK: Shared

    static func url(endpoint: RESTEndpoint, table: String, parameters: [QueryParameter]) throws -> URL {
        try validate(table: table)
        var text = endpoint.restRoot + "/" + PercentEncoding.encode(table)
        if !parameters.isEmpty { text += "?" + PercentEncoding.query(parameters) }
        guard let url = URL(string: text) else { throw QueryError(.invalidTableName) }
        return url
    }

    static func baseHeaders(endpoint: RESTEndpoint, accessToken: String?) throws -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers["apikey"] = endpoint.apiKey
        headers["Authorization"] = "Bearer " + (accessToken ?? endpoint.apiKey)
        headers["Accept"] = "application/json"
        return headers
    }

    /// The profile header value for a schema other than `public`, or `nil`.
    static func profile(_ schema: String?) throws -> String? {
        guard let schema, schema != "public" else { return nil }
        guard !schema.isEmpty, schema.trimmingCharacters(in: .whitespaces) == schema,
            schema.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.generalCategory != .control }),
            !schema.contains(",")
        else { throw QueryError(.invalidSchemaName) }
        return schema
    }

    /// Rejects a table name PostgREST would reject or that cannot go in a URL path.
    static func validate(table: String) throws {
        guard !table.isEmpty, table != ".", table != "..", !table.unicodeScalars.contains(where: isForbidden)
        else { throw QueryError(.invalidTableName) }
    }

    /// Whether a table name may not hold `scalar`: a path or query delimiter, `%`, a backslash,
    /// whitespace, a control or a format character. ASCII is decided without Unicode's tables,
    /// since every write checks its table.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case "/", "?", "#", "%", "\\", " ": return true
            default: return scalar.value < 0x20 || scalar.value == 0x7F
            }
        }
        let properties = scalar.properties
        return properties.isWhitespace || properties.generalCategory == .control
            || properties.generalCategory == .format
    }

    private static func validate(text: String) throws {
        try FilterRendering.validate(text: text)
    }

    private static func validate(orderColumn: String) throws {
        guard !orderColumn.isEmpty,
            !orderColumn.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw QueryError(.invalidColumnName) }
    }
}

extension QueryDescription {
    /// A key equal for equal reads and stable across runs (schema, table and the encoded query
    /// parameters), under which the cache keeps one list per read.
    public var canonicalKey: String {
        let prefix = PercentEncoding.encode(schema ?? "public") + "/" + PercentEncoding.encode(table)
        if let parameters = try? RequestBuilder.queryParameters(for: self) {
            return prefix + "?" + PercentEncoding.query(parameters)
        }
        return prefix + "#unencodable:" + String(reflecting: self)
    }
}
