import Foundation

/// The kind of a write.
public enum MutationOperation: String, Sendable, Hashable, CaseIterable {
    /// `POST` new rows.
    case insert
    /// `POST` with `Prefer: resolution=...`: insert, or merge into the row with the same key.
    case upsert
    /// `PATCH` the rows a filter matches.
    case update
    /// `DELETE` the rows a filter matches.
    case delete
}

/// A write as the engine keeps it: everything needed to send it again after a restart and to
/// lay it over cached lists.
package struct Mutation: Sendable, Hashable, Identifiable {
    /// A unique id, made on the device.
    package var id: UUID
    /// The user who made the write, or `nil` when nobody was signed in.
    package var ownerID: String?
    /// The schema, or `nil` for the default.
    package var schema: String?
    /// The table.
    package var table: String
    /// Insert, upsert, update or delete.
    package var operation: MutationOperation
    /// The rows sent: the new rows of an insert or upsert, the one patch row of an update,
    /// none for a delete.
    package var rows: [Row]
    /// The filters of an update or delete.
    package var filters: [Filter]
    /// An upsert's conflict columns (`on_conflict`), or `nil` for the primary key.
    package var onConflict: [String]?
    /// An upsert that keeps the existing row (`resolution=ignore-duplicates`).
    package var ignoreDuplicates: Bool
    /// Absent columns take their default (`Prefer: missing=default`).
    package var useDefaultForMissing: Bool
    /// The `select` text when the write asks for its rows back (`Prefer: return=representation`).
    package var returning: String?
    /// When the write was made.
    package var createdAt: Date
    /// How many times it was sent without an answer that settled it.
    package var attempts: Int

    /// A write from its parts.
    package init(
        id: UUID = UUID(), ownerID: String? = nil, schema: String? = nil, table: String,
        operation: MutationOperation, rows: [Row] = [], filters: [Filter] = [],
        onConflict: [String]? = nil, ignoreDuplicates: Bool = false, useDefaultForMissing: Bool = false,
        returning: String? = nil, createdAt: Date = Date(), attempts: Int = 0
    ) {
        self.id = id
        self.ownerID = ownerID
        self.schema = schema
        self.table = table
        self.operation = operation
        self.rows = rows
        self.filters = filters
        self.onConflict = onConflict
        self.ignoreDuplicates = ignoreDuplicates
        self.useDefaultForMissing = useDefaultForMissing
        self.returning = returning
        self.createdAt = createdAt
        self.attempts = attempts
    }
}
