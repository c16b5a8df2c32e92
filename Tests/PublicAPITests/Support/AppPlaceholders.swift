import Foundation
import OfflineEngine

// What the snippets take from the app around them: a screen to show rows on and an auth client.

/// Shows rows on screen (the snippets' `show(_:offline:)`); here it only keeps them.
func show(_ tasks: [Task], offline: Bool) {
    _ = (tasks, offline)
}

/// Tells the user their store cannot be opened (the snippets' `showStoreProblem(_:)`).
func showStoreProblem(_ error: StoreError) {
    _ = error
}

/// The app's auth client, as the catalog's session-restore snippet uses it.
struct AuthClient: Sendable {
    /// The session the auth client kept from the last launch.
    struct StoredSession: Sendable {
        var accessToken: String
        var userID: String
    }

    var stored: StoredSession?

    func restoreStoredSession() async throws -> StoredSession? { stored }
}
