import Foundation

/// Wraps a transport so reads ride out a brief outage (a 503 while the schema cache reloads, a
/// 520 from the proxy, a dropped connection) following ``ReadRetryPolicy``; waits run on the
/// injected clock. A retry leaves only while `mayRetry` holds (the network not known down: after
/// `disableNetwork()` nothing is sent); otherwise the last answer or failure is the outcome.
struct RetryingTransport: HTTPTransport {
    /// The transport that sends each attempt.
    let base: any HTTPTransport
    /// The clock the waits between attempts run on.
    let clock: any Clock<Duration>
    /// When to try again.
    var policy = ReadRetryPolicy()
    /// Whether a retry may leave now, asked after each wait.
    let mayRetry: @Sendable () -> Bool

    init(
        base: any HTTPTransport, clock: any Clock<Duration>, policy: ReadRetryPolicy = ReadRetryPolicy(),
        mayRetry: @escaping @Sendable () -> Bool = { true }
    ) {
        self.base = base
        self.clock = clock
        self.policy = policy
        self.mayRetry = mayRetry
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var retries = 0
        while true {
            var attempt = request
            if retries > 0 { attempt.headers[ReadRetryPolicy.retryCountHeader] = String(retries) }
            let outcome: ReadRetryPolicy.Outcome
            let failure: any Error
            do {
                let response = try await base.send(attempt)
                guard
                    let delay = policy.delay(
                        beforeRetryOf: request, after: .response(response),
                        retriesSoFar: retries)
                else { return response }
                try await clock.sleep(for: delay)
                guard mayRetry() else { return response }
                retries += 1
                continue
            } catch let error as TransportError {
                outcome = .transportFailure
                failure = error
            } catch {
                outcome = .otherError
                failure = error
            }
            guard let delay = policy.delay(beforeRetryOf: request, after: outcome, retriesSoFar: retries)
            else { throw failure }
            try await clock.sleep(for: delay)
            guard mayRetry() else { throw failure }
            retries += 1
        }
    }
}
