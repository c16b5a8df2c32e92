import Foundation

/// A call of a database function, as supabase-swift's `rpc(_:params:)`: sent at once with the
/// session signed in now, never queued, so it needs the network.
///
/// ```swift
/// let total: Int = try await client.rpc("count_open_tasks", params: ["owner": userID]).execute().value
/// try await client.rpc("archive_done").execute()
/// ```
public struct RemoteCall: Sendable {
    let client: OfflineClient
    /// The function's name.
    public let function: String
    let params: JSONValue
    let schema: String?

    /// Calls the function and decodes what it returned into `T` (a row type, an array of
    /// them, a scalar). Throws ``ClientError/offline`` with the network known down, and the
    /// server's ``PostgrestError`` when it refuses.
    public func execute<T: Decodable>() async throws -> CallResponse<T> {
        let response = try await client.engine.call(function, params: params, schema: schema)
        let value = try JSONText.parse(response.body).decode(
            T.self, with: client.engine.configuration.decoder)
        return CallResponse(value: value, status: response.status)
    }

    /// Calls the function for its effects; what it returned is not read.
    @discardableResult
    public func execute() async throws -> CallResponse<Void> {
        let response = try await client.engine.call(function, params: params, schema: schema)
        return CallResponse(value: (), status: response.status)
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
