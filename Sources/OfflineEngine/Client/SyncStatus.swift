import Foundation

/// The whole client's sync, at a glance: what an app shows in a status bar or a settings
/// screen. ``OfflineClient/syncStatus`` sends a new value whenever one of its parts changes.
///
/// ```swift
/// for try await status in client.syncStatus {
///     if status.isWaitingForSession { showSignInAgain() }
///     else if status.pendingCount > 0 { showSyncing(count: status.pendingCount, since: status.oldestPendingAt) }
///     else { showSynced(at: status.lastSyncedAt) }
/// }
/// ```
public struct SyncStatus: Sendable, Hashable {
    /// The network as the client sees it.
    public var connectivity: Connectivity
    /// Whether a replay pass is sending queued writes now.
    public var isUploading: Bool
    /// How many of the current user's writes wait in the queue.
    public var pendingCount: Int
    /// When the oldest of them was made (`nil`: none waits).
    public var oldestPendingAt: Date?
    /// Why the last replay pass stopped short, in the library's words (no URL, value or token);
    /// `nil` once a write is accepted again.
    public var lastUploadError: String?
    /// When a write of the queue, or one sent at once, was last accepted by the server.
    public var lastSyncedAt: Date?
    /// Whether the signed-in user's writes wait for a usable token
    /// (``SessionState/waitingForToken(_:)``), or for the stored session to be read back.
    public var isWaitingForSession: Bool
    /// The tables whose change feed the client follows (``OfflineClient/follow(changes:tables:schema:)``)
    /// but is not subscribed now: their lists may miss changes made on other devices until it
    /// is again, when they are fetched again. `schema.table` outside `public`.
    public var disconnectedFeeds: Set<String> = []
}
