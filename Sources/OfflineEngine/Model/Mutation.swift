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
///
/// A value with its parts in one shared box, copied on the first change: the queue, each table's
/// queued writes, the facts sent to live reads and the replay log all hold the same write, so
/// each copy costs a reference, not the whole write (measured: 100,000 queued writes held a
/// copy of ~160 bytes in each of those places).
package struct Mutation: Sendable, Hashable, Identifiable {
    /// The parts, compared and hashed as the write's value.
    private struct Parts: Sendable, Hashable {
        /// A unique id, made on the device.
        var id: UUID
        /// The user who made the write, or `nil` when nobody was signed in.
        var ownerID: String?
        /// The schema, or `nil` for the default.
        var schema: String?
        /// The table.
        var table: String
        /// Insert, upsert, update or delete.
        var operation: MutationOperation
        /// The rows sent: the new rows of an insert or upsert, the one patch row of an update,
        /// none for a delete.
        var rows: [Row]
        /// The filters of an update or delete.
        var filters: [Filter]
        /// An upsert's conflict columns (`on_conflict`), or `nil` for the primary key.
        var onConflict: [String]?
        /// An upsert that keeps the existing row (`resolution=ignore-duplicates`).
        var ignoreDuplicates: Bool
        /// Absent columns take their default (`Prefer: missing=default`).
        var useDefaultForMissing: Bool
        /// The `select` text when the write asks for its rows back (`Prefer: return=representation`).
        var returning: String?
        /// When the write was made.
        var createdAt: Date
        /// How many times it was sent without an answer that settled it.
        var attempts: Int
    }

    /// The box; changed only when this value holds the one reference to it, so no other value
    /// (on any thread) sees the change.
    private final class Storage: @unchecked Sendable {
        var parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private var storage: Storage

    /// A unique id, made on the device.
    package var id: UUID {
        get { storage.parts.id }
        set { unique().parts.id = newValue }
    }
    /// The user who made the write, or `nil` when nobody was signed in.
    package var ownerID: String? {
        get { storage.parts.ownerID }
        set { unique().parts.ownerID = newValue }
    }
    /// The schema, or `nil` for the default.
    package var schema: String? {
        get { storage.parts.schema }
        set { unique().parts.schema = newValue }
    }
    /// The table.
    package var table: String {
        get { storage.parts.table }
        set { unique().parts.table = newValue }
    }
    /// Insert, upsert, update or delete.
    package var operation: MutationOperation {
        get { storage.parts.operation }
        set { unique().parts.operation = newValue }
    }
    /// The rows sent: the new rows of an insert or upsert, the one patch row of an update,
    /// none for a delete.
    package var rows: [Row] {
        get { storage.parts.rows }
        set { unique().parts.rows = newValue }
    }
    /// The filters of an update or delete.
    package var filters: [Filter] {
        get { storage.parts.filters }
        set { unique().parts.filters = newValue }
    }
    /// An upsert's conflict columns (`on_conflict`), or `nil` for the primary key.
    package var onConflict: [String]? {
        get { storage.parts.onConflict }
        set { unique().parts.onConflict = newValue }
    }
    /// An upsert that keeps the existing row (`resolution=ignore-duplicates`).
    package var ignoreDuplicates: Bool {
        get { storage.parts.ignoreDuplicates }
        set { unique().parts.ignoreDuplicates = newValue }
    }
    /// Absent columns take their default (`Prefer: missing=default`).
    package var useDefaultForMissing: Bool {
        get { storage.parts.useDefaultForMissing }
        set { unique().parts.useDefaultForMissing = newValue }
    }
    /// The `select` text when the write asks for its rows back (`Prefer: return=representation`).
    package var returning: String? {
        get { storage.parts.returning }
        set { unique().parts.returning = newValue }
    }
    /// When the write was made.
    package var createdAt: Date {
        get { storage.parts.createdAt }
        set { unique().parts.createdAt = newValue }
    }
    /// How many times it was sent without an answer that settled it.
    package var attempts: Int {
        get { storage.parts.attempts }
        set { unique().parts.attempts = newValue }
    }

    /// A write from its parts.
    package init(
        id: UUID = UUID(), ownerID: String? = nil, schema: String? = nil, table: String,
        operation: MutationOperation, rows: [Row] = [], filters: [Filter] = [],
        onConflict: [String]? = nil, ignoreDuplicates: Bool = false, useDefaultForMissing: Bool = false,
        returning: String? = nil, createdAt: Date = Date(), attempts: Int = 0
    ) {
        storage = Storage(
            Parts(
                id: id, ownerID: ownerID, schema: schema, table: table, operation: operation, rows: rows,
                filters: filters, onConflict: onConflict, ignoreDuplicates: ignoreDuplicates,
                useDefaultForMissing: useDefaultForMissing, returning: returning, createdAt: createdAt,
                attempts: attempts))
    }

    /// The box, copied first when another value shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.parts) }
        return storage
    }

    package static func == (lhs: Mutation, rhs: Mutation) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.parts == rhs.storage.parts
    }

    package func hash(into hasher: inout Hasher) {
        storage.parts.hash(into: &hasher)
    }
}
