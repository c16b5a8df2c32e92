import Foundation

/// What a one-shot read returns: its rows, and the same facts about them a live read's snapshot
/// gives (whether they come from the device, when they were fetched, whether a queued write
/// changed them).
///
/// ``ReadQuery/fetch()`` returns one. The rows are a ``QueryResult``, as in
/// ``QuerySnapshot/result``, and `rows` and `decode(_:)` read them directly:
///
/// ```swift
/// let open = try await client.from("tasks").select().eq("done", value: false).fetch()
/// let tasks = try open.decode([Task].self)
/// if open.hasPendingMutations {
///     showSyncBadge()        // a queued write changed these rows: they are not the server's yet
/// }
/// if open.isFromCache, let fetchedAt = open.fetchedAt {
///     showOffline(since: fetchedAt)   // the server could not answer: the device's rows
/// }
/// ```
public struct FetchResult: Sendable, Hashable {
    /// The rows, with the user's pending writes laid over them.
    public var result: QueryResult
    /// Whether the rows are the device's (the server did not answer this read, or its answer
    /// could not be written) rather than the server's answer to it.
    public var isFromCache: Bool
    /// When the cached rows were last fetched from the server, if ever.
    public var fetchedAt: Date?
    /// Whether a queued write changed these rows (not merely whether one is queued), as on
    /// ``QuerySnapshot/hasPendingMutations``.
    public var hasPendingMutations: Bool

    /// A result from its parts.
    public init(result: QueryResult, isFromCache: Bool, fetchedAt: Date?, hasPendingMutations: Bool) {
        self.result = result
        self.isFromCache = isFromCache
        self.fetchedAt = fetchedAt
        self.hasPendingMutations = hasPendingMutations
    }

    /// The rows, in the server's order, with queued rows appended after them.
    public var rows: QueryRows { result.rows }

    /// Decodes the rows into the app's types, e.g. `decode([Task].self)`, with `decoder` (pass
    /// the client's ``Configuration/decoder`` when it was changed).
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = Configuration.defaultDecoder())
        throws
        -> T
    {
        try result.decode(type, decoder: decoder)
    }
}
