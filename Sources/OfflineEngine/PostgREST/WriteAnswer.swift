import Foundation

/// Reads the answer to a write: whether a 2xx is PostgREST's own, and so settles the write.
///
/// A captive portal's sign-in page, a proxy's error page, an empty body where rows were asked
/// for, a bare JSON string: each comes with a 2xx status from something that is not PostgREST,
/// and says nothing of whether the write was applied. Such an answer never settles a write; the
/// write stays queued and is tried again.
enum WriteAnswer {
    /// PostgREST's answer to a write: the rows it sent back and the count, if asked.
    struct Answer: Sendable {
        var rows: [Row]
        var count: Int?
    }

    /// The rows of PostgREST's answer to `mutation`: a JSON array (or object) of rows, or an
    /// empty body where `return=minimal` asked for none (or a 204 carrying PostgREST's
    /// `Content-Range`). Throws the response's failure for a non-2xx status, and
    /// ``UnexpectedResponseError`` for a 2xx that is not PostgREST's answer.
    static func rows(from response: HTTPResponse, for mutation: Mutation) throws -> [Row] {
        guard response.isSuccess else { throw ResponseDecoding.failure(for: response) }
        if ResponseDecoding.isBlank(response.body) {
            let minimal = mutation.returning == nil
            let postgrestNoContent = response.status == 204 && response.headers["Content-Range"] != nil
            guard minimal || postgrestNoContent else {
                throw UnexpectedResponseError(
                    status: response.status, contentType: response.mediaType, reason: .notJSON)
            }
            try checkReached(response, rows: [], for: mutation)
            return []
        }
        let rows = try ResponseDecoding.rows(from: response)
        try checkReached(response, rows: rows, for: mutation)
        return rows
    }

    /// Throws the conflict of an update or delete that had to reach a row and reached none, as
    /// PostgREST counted (`Content-Range`) or, without a count, as its returned rows show.
    private static func checkReached(_ response: HTTPResponse, rows: [Row], for mutation: Mutation) throws {
        guard mutation.expectsRows, mutation.operation == .update || mutation.operation == .delete else {
            return
        }
        let reached = ResponseDecoding.count(from: response) ?? (mutation.returning == nil ? nil : rows.count)
        if reached == 0 { throw RejectedMutation.conflictRefusal }
    }

    /// Whether a failure leaves open that the server applied the write: no answer arrived after
    /// the request may have left, or an answer came that is not PostgREST's (a proxy's page). A
    /// PostgREST error, or a connection that was never made, says it was not applied.
    static func mayHaveBeenApplied(after error: any Error) -> Bool {
        switch error {
        case let failure as TransportError:
            return failure.kind != .offline && failure.kind != .cannotConnect
        case let unexpected as UnexpectedResponseError:
            return unexpected.status >= 500 || (200..<300).contains(unexpected.status)
        default:
            return false
        }
    }

    /// Whether a failure is worth trying again later: what ``ResponseDecoding/isRetryable(_:)``
    /// says, and also an answer that is not PostgREST's (a 2xx or 3xx from a portal or proxy).
    static func isTransient(_ error: any Error) -> Bool {
        if ResponseDecoding.isRetryable(error) { return true }
        if let unexpected = error as? UnexpectedResponseError, (200..<400).contains(unexpected.status) {
            return true
        }
        if let refusal = error as? PostgrestError, (300..<400).contains(refusal.status) { return true }
        return false
    }
}
