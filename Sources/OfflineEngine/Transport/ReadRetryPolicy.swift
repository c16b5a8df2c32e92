import Foundation

/// When a read is tried again: the schedule supabase-swift and supabase-kt use, as a pure
/// function of the attempt and its outcome.
///
/// Only GET and HEAD are retried, on 503 and 520 and on transport failures (unless the request
/// opts out), after 1 s, 2 s and 4 s: four attempts with 7 s of backoff. A 503 with
/// `Retry-After: <seconds>` waits that long instead, capped at ``retryAfterCap`` (30 s, the
/// same cap supabase-js puts on its backoff) so a confused proxy cannot stall a read for
/// minutes. Writes, cancellation and any other error are never retried.
struct ReadRetryPolicy: Sendable, Hashable {
    /// What came of one attempt.
    enum Outcome: Sendable {
        /// The server answered.
        case response(HTTPResponse)
        /// No answer arrived (a ``TransportError``).
        case transportFailure
        /// Cancellation or any other error, which is never retried.
        case otherError
    }

    /// How many times a read is tried again after the first attempt.
    var maxRetries = 3
    /// The wait before the first retry; each later wait doubles it.
    var baseDelay: Duration = .seconds(1)
    /// The longest wait the doubling reaches.
    var maxDelay: Duration = .seconds(30)
    /// The longest wait a `Retry-After` header can ask for.
    var retryAfterCap: Duration = .seconds(30)

    /// The statuses a read is retried on.
    static let retryableStatuses: Set<Int> = [503, 520]

    /// The header that tells the server which retry an attempt is.
    static let retryCountHeader = "X-Retry-Count"

    /// The wait before trying `request` again after `outcome`, or `nil` to stop.
    /// `retriesSoFar` counts the retries already made (0 after the first attempt).
    func delay(beforeRetryOf request: HTTPRequest, after outcome: Outcome, retriesSoFar: Int) -> Duration? {
        guard request.method.isSafe, retriesSoFar < maxRetries else { return nil }
        switch outcome {
        case .otherError:
            return nil
        case .transportFailure:
            return request.retriesTransportFailures ? backoff(retriesSoFar) : nil
        case .response(let response):
            guard Self.retryableStatuses.contains(response.status) else { return nil }
            if response.status == 503, let asked = response.retryAfter {
                return min(asked, retryAfterCap)
            }
            return backoff(retriesSoFar)
        }
    }

    /// `baseDelay * 2^retry`, capped at `maxDelay`.
    func backoff(_ retry: Int) -> Duration {
        var delay = baseDelay
        for _ in 0..<max(0, retry) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }
}
