import Foundation

/// How long a queued write may go on being tried: an attempt cap and a maximum age
/// (``Configuration/maxAttempts``, ``Configuration/maxWriteAge``). A write past either is rejected
/// with that reason, so the app sees it; it is never dropped.
struct WriteLimits: Sendable {
    var maxAttempts: Int?
    var maxAge: Duration?
    /// The time now, against which a write's age is told.
    var now: @Sendable () -> Date = { Date() }

    /// The refusal a write is rejected with, or `nil` while it may still be sent.
    func refusal(for mutation: Mutation, attempts: Int) -> PostgrestError? {
        if let maxAttempts, attempts >= maxAttempts { return RejectedMutation.attemptsExhaustedRefusal }
        if let maxAge {
            if now().timeIntervalSince(mutation.createdAt) > maxAge.timeInterval {
                return RejectedMutation.tooOldRefusal
            }
        }
        return nil
    }
}
