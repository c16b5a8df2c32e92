import Foundation

/// A cached query result as the store keeps it between launches.
package struct StoredList: Sendable, Hashable {
    /// The canonical key of the query the rows answer.
    package var key: String
    /// The schema of the query's table, or `nil` for the default.
    package var schema: String?
    /// The query's table, so every list of a table can be found.
    package var table: String
    /// The rows as the server returned them (numbers kept exact).
    package var rows: [Row]
    /// When the rows were fetched.
    package var fetchedAt: Date
    /// The change tick at which the fetch started, to compare with the table's mark.
    package var mark: Int64
    /// Whether the list must be fetched again before it is trusted (for example after a user change).
    package var isStale: Bool
    /// When the list's time to live ends (wall time), or `nil` for a list that does not expire.
    package var expiresAt: Date?
    /// The rows the read's count holds beyond `rows` (the server's count less the rows it
    /// returned), or `nil` when the read did not ask for a count.
    package var countBeyond: Int?

    /// A list from its parts.
    package init(
        key: String, schema: String? = nil, table: String, rows: [Row], fetchedAt: Date,
        mark: Int64 = 0, isStale: Bool = false, expiresAt: Date? = nil, countBeyond: Int? = nil
    ) {
        self.countBeyond = countBeyond
        self.key = key
        self.schema = schema
        self.table = table
        self.rows = rows
        self.fetchedAt = fetchedAt
        self.mark = mark
        self.isStale = isStale
        self.expiresAt = expiresAt
    }
}

/// A write waiting in the queue, in queue order.
package struct QueuedWrite: Sendable, Hashable {
    /// The write; its `attempts` is the stored attempt count.
    package var mutation: Mutation
    /// Its position: a later write has a larger sequence.
    package var sequence: Int64
    /// Whether it was sent without an answer yet; after a crash it may have been applied.
    package var isInFlight: Bool
}

/// A write that was replayed, kept so lists fetched before it still show it.
package struct ReplayedWrite: Sendable, Hashable {
    /// The write as it was sent.
    package var mutation: Mutation
    /// The change tick at which it was replayed.
    package var tick: Int64
}

/// What the server said when it refused a write.
package struct RejectionDetails: Sendable, Hashable {
    /// The HTTP status.
    package var status: Int
    /// The PostgreSQL or PostgREST error code, if any.
    package var code: String?
    /// The server's message.
    package var message: String
    /// The server's details, if any.
    package var details: String?
    /// The server's hint, if any.
    package var hint: String?

    /// Details from their parts: the store fixtures' generator (`scripts/store-fixtures`), built
    /// outside the module, records a refusal with it.
    package init(
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
package struct RejectedWrite: Sendable, Hashable {
    /// The refused write.
    package var mutation: Mutation
    /// What the server said.
    package var details: RejectionDetails
    /// When it was refused.
    package var rejectedAt: Date
}

/// How much of a crash a queued write survives once `enqueue` has returned.
package enum StoreDurability: Sendable, Hashable {
    /// Survives the app being killed (WAL with `synchronous=NORMAL`); a power loss may lose the
    /// last commits. The default: fast group commits.
    case survivesAppCrash
    /// Also survives power loss (`synchronous=FULL`, an fsync per commit); slower.
    case survivesPowerLoss
}
