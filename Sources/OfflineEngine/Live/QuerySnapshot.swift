import Foundation

/// The rows of a read: the cached rows with the user's pending writes laid over them.
public struct QueryResult: Sendable, Hashable {
    /// The rows, in the server's order, with queued rows appended after them.
    public var rows: QueryRows

    /// A result from rows.
    public init(rows: QueryRows) { self.rows = rows }

    /// A result from an array of rows.
    public init(rows: [Row]) { self.rows = QueryRows(rows) }

    /// Decodes the rows into the app's types, e.g. `decode([Task].self)`, with `decoder` (pass
    /// the client's ``Configuration/decoder`` when it was changed).
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONCoders.decoder())
        throws
        -> T
    {
        try JSONValue.array(rows.map(\.json)).decode(type, with: decoder)
    }
}

/// One emission of a live read: its rows, where they came from, and how the refresh stands.
public struct QuerySnapshot: Sendable, Hashable {
    /// The rows, or `nil` when nothing is cached yet and the first fetch has not answered.
    public var result: QueryResult?
    /// Whether the rows are the device's (from the cache, with the overlay) rather than a
    /// fresh answer from the server with nothing since.
    public var isFromCache: Bool
    /// When the cached rows were last fetched from the server, if ever.
    public var fetchedAt: Date?
    /// Whether a queued write changed these rows.
    public var hasPendingMutations: Bool
    /// How the refresh behind this read stands.
    public var refresh: RefreshState
    /// The ids of the rows in ``result`` that a queued write touches (the rows to mark as not
    /// yet synced), from the same composition as the rows: `snapshot.pendingRowIDs.contains(task.id)`.
    public var pendingRowIDs: PendingRowIDs

    /// A snapshot from its parts.
    public init(
        result: QueryResult?, isFromCache: Bool, fetchedAt: Date?, hasPendingMutations: Bool,
        refresh: RefreshState, pendingRowIDs: PendingRowIDs = []
    ) {
        self.result = result
        self.isFromCache = isFromCache
        self.fetchedAt = fetchedAt
        self.hasPendingMutations = hasPendingMutations
        self.refresh = refresh
        self.pendingRowIDs = pendingRowIDs
    }
}
