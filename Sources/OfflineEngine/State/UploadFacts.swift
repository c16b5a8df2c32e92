import Foundation

/// How the replay of the queue stands, for the sync status: whether a pass is sending, and the
/// last failure that stopped one (in the library's words). The replay is its one writer.
struct UploadFacts: Sendable, Hashable {
    var isUploading = false
    var lastError: String?
}
