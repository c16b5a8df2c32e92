import Foundation

/// A cached query result as the store keeps it between launches.
public struct StoredList: Sendable, Hashable {
    /// The canonical key of the query the rows answer.
    public var key: String
    /// The schema of the query's table, or `nil` for the default.
    public var schema: String?
    /// The query's table, so every list of a table can be found.
    public var table: String
    /// The rows as the server returned them (numbers kept exact).
    public var rows: [Row]
    /// When the rows were fetched.
    public var fetchedAt: Date
    /// The change tick at which the fetch started, to compare with the table's mark.
    public var mark: Int64
    /// Whether the list must be fetched again before it is trusted (for example after a user change).
    public var isStale: Bool

    /// A list from its parts.
    public init(
        key: String, schema: String? = nil, table: String, rows: [Row], fetchedAt: Date,
        mark: Int64 = 0, isStale: Bool = false
    ) {
        self.key = key
        self.schema = schema
        self.table = table
        self.rows = rows
        self.fetchedAt = fetchedAt
        self.mark = mark
        self.isStale = isStale
    }
}

/// A write waiting in the queue, in queue order.
public struct QueuedWrite: Sendable, Hashable {
    /// The write; its `attempts` is the stored attempt count.
    public var mutation: Mutation
    /// Its position: a later write has a larger sequence.
    public var sequence: Int64
    /// Whether it was sent without an answer yet; after a crash it may have been applied.
    public var isInFlight: Bool
}

/// A write that was replayed, kept so lists fetched before it still show it.
public struct ReplayedWrite: Sendable, Hashable {
    /// The write as it was sent.
    public var mutation: Mutation
    /// The change tick at which it was replayed.
    public var tick: Int64
}

/// What the server said when it refused a write.
public struct RejectionDetails: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The PostgreSQL or PostgREST error code, if any.
    public var code: String?
    /// The server's message.
    public var message: String
    /// The server's details, if any.
    public var details: String?
    /// The server's hint, if any.
    public var hint: String?

    /// Details from their parts.
    public init(
        status: Int, code: String? = nil, message: String, details: String? = nil, hint: String? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.hint = hint
    }
}

/// A write the server refused, kept until the app dismisses it.
public struct RejectedWrite: Sendable, Hashable {
    /// The refused write.
    public var mutation: Mutation
    /// What the server said.
    public var details: RejectionDetails
    /// When it was refused.
    public var rejectedAt: Date
}

/// How much of a crash a queued write survives once `enqueue` has returned.
public enum StoreDurability: Sendable, Hashable {
    /// Survives the app being killed (WAL with `synchronous=NORMAL`); a power loss may lose the
    /// last commits. The default: fast group commits.
    case survivesAppCrash
    /// Also survives power loss (`synchronous=FULL`, an fsync per commit); slower.
    case survivesPowerLoss
}
