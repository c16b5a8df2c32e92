import Foundation

/// One row change made on the server, as a change feed delivers it (for Supabase, an action of
/// Realtime's `postgres_changes`). Hand a sequence of them to
/// ``OfflineClient/follow(changes:tables:schema:)``; the engine lays each into the cached lists
/// of its table under the user's pending writes.
///
/// ```swift
/// let change = RowChange.update(
///     ["id": 7, "title": "Ship it", "done": true], old: ["id": 7], in: "tasks",
///     committedAt: Date())
/// ```
public struct RowChange: Sendable, Hashable {
    /// What happened to the row.
    public enum Kind: Sendable, Hashable {
        /// A row was inserted: ``RowChange/record`` holds it.
        case insert
        /// A row was updated: ``RowChange/record`` holds it as it is now, and
        /// ``RowChange/oldRecord`` what the feed sends of it before (at least its key).
        case update
        /// A row was deleted: ``RowChange/oldRecord`` holds its key columns (under row-level
        /// security, Realtime sends nothing else).
        case delete
    }

    /// What happened to the row.
    public var kind: Kind
    /// The row's schema.
    public var schema: String
    /// The row's table.
    public var table: String
    /// The table's columns as the feed names them (Realtime's `columns`), or empty when the feed
    /// does not say. A record lacking one of them was cut short: it joins no list that reads it.
    public var columns: [String]
    /// The row as it is now (insert, update); empty for a delete.
    public var record: Row
    /// The row before the change: its key columns at least (update, delete); empty for an insert.
    public var oldRecord: Row
    /// When the change was committed on the server, when the feed says.
    public var commitTimestamp: Date?
    /// What the feed reports it could not send (Realtime's `errors`, such as
    /// "Error 413: Payload Too Large"): a change with errors is never laid as it is; the lists
    /// of its table are fetched again instead.
    public var errors: [String]

    /// A change of any kind.
    public init(
        kind: Kind, schema: String = "public", table: String, columns: [String] = [], record: Row = [:],
        oldRecord: Row = [:], commitTimestamp: Date? = nil, errors: [String] = []
    ) {
        self.kind = kind
        self.schema = schema
        self.table = table
        self.columns = columns
        self.record = record
        self.oldRecord = oldRecord
        self.commitTimestamp = commitTimestamp
        self.errors = errors
    }

    /// An inserted row.
    public static func insert(
        _ record: Row, into table: String, schema: String = "public", columns: [String] = [],
        committedAt: Date? = nil, errors: [String] = []
    ) -> RowChange {
        RowChange(
            kind: .insert, schema: schema, table: table, columns: columns, record: record,
            commitTimestamp: committedAt, errors: errors)
    }

    /// An updated row: `record` as it is now, `old` what the feed sends of it before.
    public static func update(
        _ record: Row, old: Row, in table: String, schema: String = "public", columns: [String] = [],
        committedAt: Date? = nil, errors: [String] = []
    ) -> RowChange {
        RowChange(
            kind: .update, schema: schema, table: table, columns: columns, record: record, oldRecord: old,
            commitTimestamp: committedAt, errors: errors)
    }

    /// A deleted row, named by its key columns.
    public static func delete(
        _ oldRecord: Row, from table: String, schema: String = "public", committedAt: Date? = nil,
        errors: [String] = []
    ) -> RowChange {
        RowChange(
            kind: .delete, schema: schema, table: table, oldRecord: oldRecord, commitTimestamp: committedAt,
            errors: errors)
    }
}

/// What a change feed sends: changes, and where its subscription stands.
///
/// A feed misses every change made while it was not subscribed, so ``subscribed`` (the first,
/// and after every reconnect) fetches the followed tables' lists again; changes sent before it
/// are held and laid when it comes, never lost.
public enum ChangeFeedEvent: Sendable, Hashable {
    /// The feed is subscribed: changes from now on reach it.
    case subscribed
    /// The feed lost its connection: changes made from now until ``subscribed`` are not sent.
    case disconnected
    /// A row changed on the server.
    case change(RowChange)
}
