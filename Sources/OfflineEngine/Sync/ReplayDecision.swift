/// How an app classes PostgREST's refusals (``Configuration/classifyFailure``): from the HTTP
/// status and PostgreSQL's or PostgREST's code.
public typealias FailureClassifier = @Sendable (_ status: Int, _ code: String?) -> FailureClass

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
    /// A replayed DELETE made with `expectingRows()` reached no row after an attempt whose answer
    /// was lost: that attempt may have removed the row, which is gone either way. Settled as
    /// accepted: a lost answer is never reported as a rejection.
    case deletedByLostAttempt

    /// The longest wait a `Retry-After` may ask of the replay, as for reads.
    static let retryAfterCap = ReadRetryPolicy().retryAfterCap

    /// Classifies the error a send threw; PostgREST's refusals by `classify` (the app's
    /// ``Configuration/classifyFailure``), everything else (no answer, an answer that is not
    /// PostgREST's) as the engine knows it.
    static func after(
        _ error: any Error, mutation: Mutation, wasAttemptedBefore: Bool, mayHaveBeenApplied: Bool = false,
        classify: FailureClassifier = FailureClass.standard
    ) -> ReplayDecision {
        let retry = ReplayDecision.retryLater(
            after: ResponseDecoding.retryAfter(error).map { min($0, retryAfterCap) })
        if let refusal = error as? PostgrestError {
            if refusal.code == PostgrestError.reachedNoRowCode, mutation.operation == .delete,
                mayHaveBeenApplied
            {
                return .deletedByLostAttempt
            }
            if refusal.status == 409, refusal.code == "23505", mutation.operation == .insert,
                wasAttemptedBefore
            {
                return .verifyLostInsert
            }
            switch classify(refusal.status, refusal.code) {
            case .permanent: return .rejected
            case .transient: return retry
            case .waitForSession: return .waitForSession
            }
        }
        if ResponseDecoding.isAuthenticationFailure(error) { return .waitForSession }
        if WriteAnswer.isTransient(error) { return retry }
        if error is CancellationError { return .retryLater(after: nil) }
        return .rejected
    }

    /// Whether a write sent at once that failed with `error` is kept in the queue to be tried
    /// again; otherwise the error is thrown to the caller and the write never queued.
    static func keepsQueued(after error: any Error, classify: FailureClassifier) -> Bool {
        if let refusal = error as? PostgrestError {
            return classify(refusal.status, refusal.code) != .permanent
        }
        // A cancelled send (the caller's task, a SwiftUI `.task` left) keeps its write: the app
        // handed it over, and the request may already be out.
        return WriteAnswer.isTransient(error) || ResponseDecoding.isAuthenticationFailure(error)
            || error is CancellationError
    }
}

/// Where a replay pass ended.
enum ReplayPassEnd: Sendable, Equatable {
    /// Nothing the current session may send is left.
    case drained
    /// The network is known down, the session is restoring, or the client is closing.
    case blocked
    /// A transient failure: try again on the schedule. `writes`: how many writes the request
    /// that failed carried (none: no request failed, the store did).
    case retryLater(after: Duration?, writes: Int)
    /// Waiting for a new session.
    case waitForSession
}
