import Foundation

/// A queued write the server refused for good. It left the queue and the lists, and stays here,
/// on the device, until the app dismisses it with ``OfflineClient/dismissRejected(_:)``.
public struct RejectedMutation: Sendable, Hashable, Identifiable {
    /// The write's id (the same as its ``PendingMutation/id`` while it was queued).
    public var id: UUID
    /// The table it wrote to.
    public var table: String
    /// Insert, upsert, update or delete.
    public var operation: MutationOperation
    /// The rows it touched, as far as the engine can tell.
    public var rowKeys: [RowKey]
    /// The user who made it.
    public var ownerID: String?
    /// When it was made.
    public var createdAt: Date
    /// When the server refused it.
    public var rejectedAt: Date
    /// The server's refusal: HTTP status and PostgREST's code, message, details and hint.
    public var error: PostgrestError

    /// The row keys as text, one per row.
    public var rowIDs: [String] { rowKeys.map(\.description) }
}
