import Foundation

/// What ``OfflineClient/flush(within:)`` sent before its deadline.
///
/// ```swift
/// let result = try await client.flush(within: .seconds(25))
/// if !result.isComplete { scheduleBackgroundSync() }   // the rest goes at the next launch or task
/// ```
public struct FlushResult: Sendable, Hashable {
    /// The user's writes the server accepted while the flush ran, in the order they left the
    /// queue.
    public var accepted: [UUID]
    /// The user's writes the server refused for good while the flush ran; they wait in
    /// ``OfflineClient/rejectedMutations()``.
    public var rejected: [UUID]
    /// How many of the user's writes still wait at the deadline. A write whose answer had not
    /// come by then is among them: it is settled when the queue is next tried, as a write whose
    /// answer was lost is (read back by its keys, never sent twice).
    public var remaining: Int

    /// Whether the user's queue was empty at the end.
    public var isComplete: Bool { remaining == 0 }

    /// A result from its parts.
    public init(accepted: [UUID], rejected: [UUID], remaining: Int) {
        self.accepted = accepted
        self.rejected = rejected
        self.remaining = remaining
    }
}
