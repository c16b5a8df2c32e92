import Foundation

/// A client scoped to one schema, as supabase-swift's `client.schema(_:)`: its tables' reads go
/// out with `Accept-Profile`, their writes with `Content-Profile`.
///
/// ```swift
/// let notes = try await client.schema("private").from("notes").select().fetch()
/// ```
public struct SchemaScope: Sendable {
    let client: OfflineClient
    /// The schema.
    public let name: String

    /// The table `table` in this schema.
    public func from(_ table: String) -> TableQuery {
        client.from(table, schema: name)
    }
}

extension OfflineClient {
    /// This client scoped to `schema` (`client.schema("private").from("notes")`), as
    /// supabase-swift's `schema(_:)`; the same as ``from(_:schema:)``.
    public func schema(_ schema: String) -> SchemaScope {
        SchemaScope(client: self, name: schema)
    }
}
