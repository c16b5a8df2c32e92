import Foundation

/// A call of a database function, as supabase-swift's `rpc(_:params:)`: sent at once with the
/// session signed in now, never queued, so it needs the network.
///
/// ```swift
/// let total: Int = try await client.rpc("count_open_tasks", params: ["owner": userID]).execute().value
/// let top: Task = try await client.rpc("most_urgent_task").single().execute().value
/// try await client.rpc("archive_done").execute()
/// ```
public struct RemoteCall: Sendable, ChangedCopy {
    let client: OfflineClient
    /// The function's name.
    public let function: String
    let params: JSONValue
    let schema: String?
    /// What `value` decodes from: what the function returned, or its one row.
    var shape = ResultShape.rows

    init(client: OfflineClient, function: String, params: JSONValue, schema: String?) {
        self.client = client
        self.function = function
        self.params = params
        self.schema = schema
    }

    /// Exactly one row, as supabase-swift's `rpc(...).single()`: `execute().value` decodes the
    /// one row of a function that returns rows (a set or a table) rather than an array, and a
    /// call that returned none or several throws PostgREST's `PGRST116` refusal
    /// (``PostgrestError``, status 406). A function that returns one value returns it as is.
    ///
    /// ```swift
    /// let task: Task = try await client.rpc("task_by_slug", params: ["slug": slug]).single().execute().value
    /// ```
    public func single() -> RemoteCall {
        changing { $0.shape = .single }
    }

    /// One row or none, as supabase-swift's `rpc(...).maybeSingle()`: `execute().value` decodes
    /// an `Optional` (`nil` for no row); several rows throw `PGRST116`.
    ///
    /// ```swift
    /// let task: Task? = try await client.rpc("task_by_slug", params: ["slug": slug]).maybeSingle().execute().value
    /// ```
    public func maybeSingle() -> RemoteCall {
        changing { $0.shape = .maybeSingle }
    }

    /// Calls the function and decodes what it returned into `T` (a row type, an array of
    /// them, a scalar). Throws ``ClientError/offline`` with the network known down, and the
    /// server's ``PostgrestError`` when it refuses.
    public func execute<T: Decodable>() async throws -> CallResponse<T> {
        let response = try await client.openedEngine().call(function, params: params, schema: schema)
        let value = try shaped(JSONText.parse(response.body)).decode(T.self, with: client.decoder)
        return CallResponse(value: value, status: response.status)
    }

    /// Calls the function for its effects; what it returned is not read, except to check the
    /// number of rows after ``single()`` or ``maybeSingle()``.
    @discardableResult
    public func execute() async throws -> CallResponse<Void> {
        let response = try await client.openedEngine().call(function, params: params, schema: schema)
        if shape != .rows, !response.body.isEmpty { _ = try shaped(JSONText.parse(response.body)) }
        return CallResponse(value: (), status: response.status)
    }

    /// What the function returned, as ``shape`` reads it: the rows of a function that returns
    /// rows (an array) give their one row, or `null` for none after ``maybeSingle()``; any other
    /// value stands as it is.
    private func shaped(_ returned: JSONValue) throws -> JSONValue {
        guard case .array(let rows) = returned else { return returned }
        switch shape {
        case .rows:
            return returned
        case .single:
            guard rows.count == 1, let row = rows.first else { throw ResultShape.refusal(rows.count) }
            return row
        case .maybeSingle:
            guard rows.count <= 1 else { throw ResultShape.refusal(rows.count) }
            return rows.first ?? .null
        }
    }
}

/// What a ``RemoteCall`` returned: the decoded value and the HTTP status.
public struct CallResponse<Value> {
    /// What the function returned, decoded.
    public let value: Value
    /// The HTTP status of the answer.
    public let status: Int
}

extension CallResponse: Sendable where Value: Sendable {}

extension OfflineClient {
    /// A call of the database function `function` with `params` (encoded as a JSON object, as
    /// supabase-swift encodes them), online only: see ``RemoteCall``.
    public func rpc(_ function: String, params: some Encodable & Sendable) throws -> RemoteCall {
        RemoteCall(
            client: self, function: function, params: try JSONValue(encoding: params, with: encoder),
            schema: nil)
    }

    /// A call of the database function `function` with no parameters.
    public func rpc(_ function: String) -> RemoteCall {
        RemoteCall(client: self, function: function, params: .object([:]), schema: nil)
    }
}

extension SchemaScope {
    /// A call of `function` in this schema (sent with `Content-Profile`).
    public func rpc(_ function: String, params: some Encodable & Sendable) throws -> RemoteCall {
        RemoteCall(
            client: client, function: function, params: try JSONValue(encoding: params, with: client.encoder),
            schema: name)
    }

    /// A call of `function` in this schema with no parameters.
    public func rpc(_ function: String) -> RemoteCall {
        RemoteCall(client: client, function: function, params: .object([:]), schema: name)
    }
}
