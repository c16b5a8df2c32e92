import Foundation

/// The queue as the app's counters see it: how many writes each owner has queued, whose count
/// is shown, and when the server last took a write. The engine sends a new value whenever either changes.
struct QueueFacts: Sendable, Hashable {
    /// Queued writes per owner (`nil`: owner-less writes).
    var counts = OwnerCounts()
    /// The user whose writes are shown (`nil`: nobody signed in).
    var owner: String?
    /// When the oldest write ``owner`` sees was made, if any waits.
    var oldest: Date?
    /// When the server last took one of the user's writes (replayed, or sent at once).
    var lastSyncedAt: Date?

    /// How many queued writes ``owner`` sees: theirs and owner-less ones.
    var visibleCount: Int {
        let ownerless = counts[nil] ?? 0
        guard let owner else { return ownerless }
        return ownerless + (counts[owner] ?? 0)
    }
}
