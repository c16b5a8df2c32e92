import Foundation

/// One table of the API, the start of every read and write: `client.from("tasks")`.
public struct TableQuery: Sendable {
    /// The schema, or `nil` for the default (`public`).
    public let schema: String?
    /// The table or view.
    public let table: String
    /// The client that runs the queries, if this came from one.
    let client: OfflineClient?

    /// A table not tied to a client (for building and inspecting requests).
    public init(schema: String? = nil, table: String) {
        self.init(client: nil, schema: schema, table: table)
    }

    init(client: OfflineClient?, schema: String?, table: String) {
        self.client = client
        self.schema = schema
        self.table = table
    }

    /// A read of `columns` (PostgREST's select grammar, `*` by default).
    public func select(_ columns: String = "*") -> ReadQuery {
        ReadQuery(client: client, query: QueryDescription(schema: schema, table: table, select: columns))
    }

    /// Inserts one value or an array of values, each encoding to a JSON object.
    public func insert<T: Encodable & Sendable>(_ values: T) throws -> WriteQuery {
        try insert(Self.rows(encoding: values))
    }

    /// Inserts rows. Rows with different keys are sent with `columns` set to the union of their
    /// keys, so a row's missing columns become NULL (or their default with
    /// ``WriteQuery/useDefaultsForMissingColumns(_:)``).
    public func insert(_ rows: [Row]) throws -> WriteQuery {
        guard !rows.isEmpty else { throw QueryError(.noRows) }
        return write(.insert, rows: rows)
    }

    /// Inserts one row.
    public func insert(_ row: Row) throws -> WriteQuery {
        try insert([row])
    }

    /// Inserts values, or merges them into the rows with the same key (`onConflict` columns,
    /// comma-separated, or the primary key); `ignoreDuplicates` keeps existing rows instead.
    ///
    /// Caveat: in a merge, a row that leaves out a column another row of the batch carries sets
    /// that column to NULL in the existing row (PostgREST fills missing keys with NULL, or the
    /// default with ``WriteQuery/useDefaultsForMissingColumns(_:)``). Send full rows, or batch
    /// rows by key set, when that matters.
    public func upsert<T: Encodable & Sendable>(
        _ values: T, onConflict: String? = nil, ignoreDuplicates: Bool = false
    ) throws -> WriteQuery {
        try upsert(Self.rows(encoding: values), onConflict: onConflict, ignoreDuplicates: ignoreDuplicates)
    }

    /// Upserts rows; the caveat on the `Encodable` form applies.
    public func upsert(_ rows: [Row], onConflict: String? = nil, ignoreDuplicates: Bool = false) throws
        -> WriteQuery
    {
        guard !rows.isEmpty else { throw QueryError(.noRows) }
        var query = write(.upsert, rows: rows)
        query.mutation.onConflict = onConflict.map(Self.conflictColumns)
        query.mutation.ignoreDuplicates = ignoreDuplicates
        return query
    }

    /// Upserts one row.
    public func upsert(_ row: Row, onConflict: String? = nil, ignoreDuplicates: Bool = false) throws
        -> WriteQuery
    {
        try upsert([row], onConflict: onConflict, ignoreDuplicates: ignoreDuplicates)
    }

    /// Sets the given columns on every row the filters match (`PATCH`); without filters, every row.
    public func update<T: Encodable & Sendable>(_ values: T) throws -> WriteQuery {
        try update(Self.rows(encoding: values))
    }

    /// Sets the columns of `patch` on every row the filters match.
    public func update(_ patch: Row) throws -> WriteQuery {
        try update([patch])
    }

    /// Deletes every row the filters match; without filters, every row.
    public func delete() -> WriteQuery {
        write(.delete, rows: [])
    }

    private func update(_ rows: [Row]) throws -> WriteQuery {
        guard !rows.isEmpty else { throw QueryError(.noRows) }
        guard rows.count == 1 else { throw QueryError(.updateNeedsOneRow) }
        return write(.update, rows: rows)
    }

    private func write(_ operation: MutationOperation, rows: [Row]) -> WriteQuery {
        WriteQuery(
            client: client,
            mutation: Mutation(schema: schema, table: table, operation: operation, rows: rows))
    }

    /// `"a, b"` -> `["a", "b"]`.
    static func conflictColumns(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func rows<T: Encodable>(encoding values: T) throws -> [Row] {
        do {
            return try Row.rows(encoding: values)
        } catch {
            throw QueryError(.valuesAreNotRows)
        }
    }
}
