import Foundation

/// What a write sends and lays beyond its queue columns: its rows, filters and options.
struct MutationBody: Sendable, Hashable {
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
    /// An update or delete that must reach a row: reaching none is a conflict
    /// (``WriteQuery/expectingRows(_:)``).
    var expectsRows = false
    /// Columns the device made for every row of an insert or upsert that are shown on the
    /// device only, never sent (``DeviceValue/now``, constants): see ``Mutation/sentRows``.
    var shownOnlyColumns: Set<String> = []
    /// `false` for the body of stored bytes that could not be read (empty otherwise).
    var isReadable = true

    /// The body of a write whose stored bytes could not be read: nothing to send or lay.
    static let unreadable = MutationBody(
        rows: [], filters: [], onConflict: nil, ignoreDuplicates: false, useDefaultForMissing: false,
        returning: nil, isReadable: false)
}

/// Decoding a queued write's stored bytes into its body, when the body is first needed.
///
/// Opening the client reads every queued write's columns but decodes none of their bytes (about
/// four fifths of what reading the queue cost); a write is decoded when a live read lays it, a
/// replay run sends it, or anything else first reads its rows or filters.
enum StoredBody {
    /// The body in `data`, or ``MutationBody/unreadable`` when the bytes are not the stored form
    /// of the write `id`.
    static func decode(_ data: Data, id: UUID) -> MutationBody {
        guard let write = try? Mutation(persistedData: data), write.id == id else { return .unreadable }
        return MutationBody(
            rows: write.rows, filters: write.filters, onConflict: write.onConflict,
            ignoreDuplicates: write.ignoreDuplicates, useDefaultForMissing: write.useDefaultForMissing,
            returning: write.returning, expectsRows: write.expectsRows,
            shownOnlyColumns: write.shownOnlyColumns)
    }
}

/// A queued write whose stored bytes could not be read (a damaged file): it is not sent, and
/// replay moves it to the rejected writes with this as its reason.
struct StoredWriteUnreadable: Error, CustomStringConvertible {
    var description: String {
        "The write's stored copy could not be read, so it was not sent. Make it again if it is still wanted."
    }
}
