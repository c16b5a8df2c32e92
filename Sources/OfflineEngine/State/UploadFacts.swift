import Foundation

/// How the replay of the queue stands, for the sync status: whether a pass is sending, the
/// last failure that stopped one (in the library's words), and when a write was last accepted.
struct UploadFacts: Sendable, Hashable {
    var isUploading = false
    var lastError: String?
    var lastSyncedAt: Date?
}
