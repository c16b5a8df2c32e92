/// What a replay pass does with one write after sending it. Pure: the engine decides from the
/// answer alone.
enum ReplayDecision: Sendable, Equatable {
    /// The network or the server is failing for now, or the answer was not PostgREST's: stop
    /// the pass and try again on the refresh schedule (or after the server's `Retry-After`).
    case retryLater(after: Duration?)
    /// The session was refused: keep the write and wait for the session to change.
    case waitForSession
    /// Refused for good: the write leaves the queue and joins the rejected writes.
    case rejected
    /// A replayed INSERT met a row with its key after an earlier attempt: check whether the
    /// server's row holds what was sent (the earlier answer was lost).
    case verifyLostInsert

    /// The longest wait a `Retry-After` may ask of the replay, as for reads.
    static let retryAfterCap = ReadRetryPolicy().retryAfterCap

    /// Classifies the error a send threw.
    static func after(_ error: any Error, mutation: Mutation, wasAttemptedBefore: Bool) -> ReplayDecision {
        if ResponseDecoding.isAuthenticationFailure(error) { return .waitForSession }
        if WriteAnswer.isTransient(error) {
            return .retryLater(after: ResponseDecoding.retryAfter(error).map { min($0, retryAfterCap) })
        }
        if let refusal = error as? PostgrestError, refusal.status == 409, refusal.code == "23505",
            mutation.operation == .insert, wasAttemptedBefore
        {
            return .verifyLostInsert
        }
        if error is CancellationError { return .retryLater(after: nil) }
        return .rejected
    }
}

/// Where a replay pass ended.
enum ReplayPassEnd: Sendable, Equatable {
    /// Nothing the current session may send is left.
    case drained
    /// The network is known down, the session is restoring, or the client is closing.
    case blocked
    /// A transient failure: try again on the schedule.
    case retryLater(after: Duration?)
    /// Waiting for a new session.
    case waitForSession
}
