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

    /// A read of `columns` (PostgREST's select grammar, `*` by default), as supabase-swift's
    /// `select(_:head:count:)`: `count` asks PostgREST to count the matching rows (read as
    /// ``ReadResponse/count``), and `head` asks for the count alone (`HEAD`: no rows). Either
    /// count is cached with the read, so offline `execute()` answers with it.
    ///
    /// ```swift
    /// let open = try await client.from("tasks").select("*", head: true, count: .exact)
    ///     .eq("done", value: false).execute().count
    /// ```
    public func select(_ columns: String = "*", head: Bool = false, count: CountOption? = nil) -> ReadQuery {
        var read = ReadQuery(
            client: client, query: QueryDescription(schema: schema, table: table, select: columns))
        read.options = ReadOptions(head: head, count: count)
        return read
    }

    /// Inserts one value or an array of values, each encoding to a JSON object with the client's
    /// ``Configuration/encoder``.
    ///
    /// `returning` left out asks for the rows only when they are read (``WriteQuery/select(_:)``,
    /// or a typed `execute()`); `count` asks PostgREST to count the rows written.
    public func insert<T: Encodable>(
        _ values: T, returning: PostgrestReturningOptions? = nil, count: CountOption? = nil
    )
        throws -> WriteQuery
    {
        try insert(rows(encoding: values), returning: returning, count: count)
    }

    /// Inserts rows. Rows with different keys are sent with `columns` set to the union of their
    /// keys, so a row's missing columns become NULL (or their default with
    /// ``WriteQuery/useDefaultsForMissingColumns(_:)``).
    public func insert(_ rows: [Row], returning: PostgrestReturningOptions? = nil, count: CountOption? = nil)
        throws -> WriteQuery
    {
        guard !rows.isEmpty else { throw QueryError(.noRows) }
        return write(.insert, rows: rows, returning: returning, count: count)
    }

    /// Inserts one row.
    public func insert(_ row: Row, returning: PostgrestReturningOptions? = nil, count: CountOption? = nil)
        throws -> WriteQuery
    {
        try insert([row], returning: returning, count: count)
    }

    /// Inserts values, or merges them into the rows with the same key (`onConflict` columns,
    /// comma-separated, or the primary key); `ignoreDuplicates` keeps existing rows instead.
    ///
    /// Caveat: in a merge, a row that leaves out a column another row of the batch carries sets
    /// that column to NULL in the existing row (PostgREST fills missing keys with NULL, or the
    /// default with ``WriteQuery/useDefaultsForMissingColumns(_:)``); lists show it so while the
    /// write waits to sync. Send full rows, or batch rows by key set, when that matters.
    public func upsert<T: Encodable>(
        _ values: T, onConflict: String? = nil, returning: PostgrestReturningOptions? = nil,
        count: CountOption? = nil, ignoreDuplicates: Bool = false
    ) throws -> WriteQuery {
        try upsert(
            rows(encoding: values), onConflict: onConflict, returning: returning, count: count,
            ignoreDuplicates: ignoreDuplicates)
    }

    /// Upserts rows; the caveat on the `Encodable` form applies.
    public func upsert(
        _ rows: [Row], onConflict: String? = nil, returning: PostgrestReturningOptions? = nil,
        count: CountOption? = nil, ignoreDuplicates: Bool = false
    ) throws -> WriteQuery {
        guard !rows.isEmpty else { throw QueryError(.noRows) }
        var query = write(.upsert, rows: rows, returning: returning, count: count)
        query.mutation.onConflict = onConflict.map(Self.conflictColumns)
        query.mutation.ignoreDuplicates = ignoreDuplicates
        return query
    }

    /// Upserts one row.
    public func upsert(
        _ row: Row, onConflict: String? = nil, returning: PostgrestReturningOptions? = nil,
        count: CountOption? = nil, ignoreDuplicates: Bool = false
    ) throws -> WriteQuery {
        try upsert(
            [row], onConflict: onConflict, returning: returning, count: count,
            ignoreDuplicates: ignoreDuplicates)
    }

    /// Sets the given columns on every row the filters match (`PATCH`); without filters, every row.
    public func update<T: Encodable>(
        _ values: T, returning: PostgrestReturningOptions? = nil, count: CountOption? = nil
    )
        throws -> WriteQuery
    {
        try update(rows(encoding: values), returning: returning, count: count)
    }

    /// Sets the columns of `patch` on every row the filters match.
    public func update(_ patch: Row, returning: PostgrestReturningOptions? = nil, count: CountOption? = nil)
        throws -> WriteQuery
    {
        try update([patch], returning: returning, count: count)
    }

    /// Deletes every row the filters match; without filters, every row.
    public func delete(returning: PostgrestReturningOptions? = nil, count: CountOption? = nil) -> WriteQuery {
        write(.delete, rows: [], returning: returning, count: count)
    }

    private func update(_ rows: [Row], returning: PostgrestReturningOptions?, count: CountOption?) throws
        -> WriteQuery
    {
        guard !rows.isEmpty else { throw QueryError(.noRows) }
        guard rows.count == 1 else { throw QueryError(.updateNeedsOneRow) }
        return write(.update, rows: rows, returning: returning, count: count)
    }

    private func write(
        _ operation: MutationOperation, rows: [Row], returning: PostgrestReturningOptions?,
        count: CountOption?
    ) -> WriteQuery {
        var query = WriteQuery(
            client: client,
            mutation: Mutation(schema: schema, table: table, operation: operation, rows: rows))
        query.returningChoice = returning
        if returning == .representation { query.mutation.returning = "*" }
        query.count = count
        return query
    }

    /// `"a, b"` -> `["a", "b"]`.
    static func conflictColumns(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The rows of `values`, encoded with the client's encoder (the default one without a client).
    private func rows<T: Encodable>(encoding values: T) throws -> [Row] {
        do {
            return try Row.rows(encoding: values, with: client?.encoder ?? JSONCoders.encoder())
        } catch {
            throw QueryError(.valuesAreNotRows)
        }
    }
}
