import Foundation

/// What a read's `execute()` returns, as supabase-swift's `PostgrestResponse`: the decoded
/// `value` and the `count`, with where the rows came from.
///
/// ```swift
/// let tasks: [Task] = try await client.from("tasks").select().execute().value
/// let task: Task = try await client.from("tasks").select().eq("id", value: id).single().execute().value
///
/// let response = try await client.from("tasks").select("*", count: .exact).range(from: 0, to: 19)
///     .execute() as ReadResponse<[Task]>
/// print(response.value.count, "of", response.count ?? 0, response.isFromCache ? "(offline)" : "")
/// ```
///
/// Offline, or when the server fails, the rows are the device's, with the user's queued writes
/// laid over them (``isFromCache``), and a count is the cached one; a read nothing is cached for
/// throws ``ClientError/notCached`` offline, or the server's failure.
public struct ReadResponse<Value> {
    /// The rows decoded with the client's ``Configuration/decoder``: an array, or the one row of
    /// ``ReadQuery/single()`` (`Optional` for ``ReadQuery/maybeSingle()``).
    public let value: Value
    /// The count asked with `select(_:head:count:)`: the server's, from its `Content-Range`.
    /// From the cache it is the count the server gave when the read was last answered, moved by
    /// the user's writes the device can decide (an insert the read's filters admit, a delete of a
    /// row it holds); for a read never counted, the number of rows the device shows when it has
    /// no limit or range, else `nil`.
    public let count: Int?
    /// The rows undecoded (none for `head: true`).
    public let rows: QueryRows
    /// Whether the rows are the device's because the server did not answer.
    public let isFromCache: Bool
    /// When the cached rows were last fetched from the server, if ever.
    public let fetchedAt: Date?
    /// Whether a queued write changed these rows.
    public let hasPendingMutations: Bool

    init(value: Value, count: Int?, result: FetchResult) {
        self.value = value
        self.count = count
        rows = result.rows
        isFromCache = result.isFromCache
        fetchedAt = result.fetchedAt
        hasPendingMutations = result.hasPendingMutations
    }
}

extension ReadResponse: Sendable where Value: Sendable {}

/// supabase-swift's name for a response, so that a data layer that spells out a read's type
/// (`let page: PostgrestResponse<[Task]> = try await ….execute()`) compiles unchanged. A
/// write's response is a ``WriteResponse``.
public typealias PostgrestResponse<Value> = ReadResponse<Value>

/// What a write's `execute()` returns: the decoded `value` and `count`, as supabase-swift's
/// `PostgrestResponse`, and whether it was sent or kept on the device (``outcome``).
///
/// ```swift
/// let saved: Task = try await client.from("tasks").insert(task).select().single().execute().value
/// let response = try await client.from("tasks").delete().eq("id", value: id).execute()
/// if response.isQueued { showSyncBadge() }
/// ```
///
/// A queued write's `value` decodes the rows as written on the device (see ``rows``), so a data
/// layer reads the same shape online and offline.
public struct WriteResponse<Value> {
    /// The rows decoded with the client's ``Configuration/decoder``: the server's answer, or
    /// the rows as written on the device when the write was queued.
    public let value: Value
    /// The count asked with `count:`: the server's; for a queued write, the number of ``rows``.
    public let count: Int?
    /// Sent (with the server's rows) or queued (with the pending write).
    public let outcome: WriteResult
    /// The rows `value` decodes: the server's when sent; when queued, an insert's or upsert's
    /// rows as given, an update's rows the device holds that its filters match with the patch
    /// laid over them, a delete's rows as they were (rows whose match the device cannot tell are
    /// left out). Empty when the write was sent without asking for rows.
    public let rows: [Row]

    /// Whether the write was kept on the device to replay rather than accepted by the server.
    public var isQueued: Bool {
        if case .queued = outcome { return true }
        return false
    }
}

extension WriteResponse: Sendable where Value: Sendable {}
