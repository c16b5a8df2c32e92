import Foundation

/// Reads the answer to a write: whether a 2xx is PostgREST's own, and so settles the write.
///
/// A captive portal's sign-in page, a proxy's error page, an empty body where rows were asked
/// for, a bare JSON string, a bare `201` without PostgREST's `Content-Range`: each comes with a
/// 2xx status from something that is not PostgREST, and says nothing of whether the write was
/// applied. Such an answer never settles a write; the write stays queued and is tried again.
enum WriteAnswer {
    /// PostgREST's answer to a write: the rows it sent back and the count, if asked.
    struct Answer: Sendable {
        var rows: [Row]
        var count: Int?
    }

    /// The statuses PostgREST answers `mutation` with when it applied it (`Response.hs`): an
    /// insert `201`; an upsert `201`, or `200` for a merge that inserted nothing; an update or a
    /// delete `204`, or `200` when it asked for its rows.
    static func statuses(for mutation: Mutation) -> Set<Int> {
        switch mutation.operation {
        case .insert: return [201]
        case .upsert: return mutation.ignoreDuplicates ? [201] : [200, 201]
        case .update, .delete: return mutation.returning == nil ? [204] : [200]
        }
    }

    /// The rows of PostgREST's answer to `mutation`: with one of the ``statuses(for:)``, an empty
    /// body where `return=minimal` asked for none, else a JSON array (or object) of rows declared
    /// as JSON. Throws the response's failure for a non-2xx status, and
    /// ``UnexpectedResponseError`` for a 2xx that is not PostgREST's answer to this write.
    static func rows(from response: HTTPResponse, for mutation: Mutation) throws -> [Row] {
        guard response.isSuccess else { throw ResponseDecoding.failure(for: response) }
        guard statuses(for: mutation).contains(response.status), hasPostgRESTRange(response) else {
            throw notPostgRESTs(response)
        }
        guard mutation.returning != nil else {
            guard ResponseDecoding.isBlank(response.body) else { throw notPostgRESTs(response) }
            try checkReached(response, rows: [], for: mutation)
            return []
        }
        guard let type = response.mediaType, isJSON(type), !ResponseDecoding.isBlank(response.body) else {
            throw notPostgRESTs(response)
        }
        let rows = try ResponseDecoding.rows(from: response)
        try checkReached(response, rows: rows, for: mutation)
        return rows
    }

    /// Whether the answer carries the `Content-Range` PostgREST sends with every write it applied
    /// (`*/*`, `*/3`, `0-2/*` or `0-2/3`): a bare `201` or `204` from something else, which never
    /// saw the write, does not.
    private static func hasPostgRESTRange(_ response: HTTPResponse) -> Bool {
        guard let value = response.headers["Content-Range"] else { return false }
        let parts = value.trimmingCharacters(in: .whitespaces).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, isCount(parts[1]) else { return false }
        if parts[0] == "*" { return true }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        return bounds.count == 2 && bounds.allSatisfy { isCount($0) && $0 != "*" }
    }

    /// Whether a part of a range is a count or `*`.
    private static func isCount(_ part: Substring) -> Bool {
        part == "*" || (!part.isEmpty && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber))
    }

    /// Whether a media type is JSON as PostgREST declares it (`application/json`, or
    /// `application/vnd.pgrst.object+json` for one object).
    private static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json")
    }

    /// The error of a 2xx that is not PostgREST's answer: a page (a declared type other than
    /// JSON), or a status or body PostgREST does not give this write.
    private static func notPostgRESTs(_ response: HTTPResponse) -> UnexpectedResponseError {
        let notJSON = response.mediaType.map { !isJSON($0) } ?? false
        return UnexpectedResponseError(
            status: response.status, contentType: response.mediaType,
            reason: notJSON ? .notJSON : .notPostgRESTAnswer, body: response.body)
    }

    /// Throws the conflict of an update or delete that had to reach a row and reached none, as
    /// PostgREST counted (`Content-Range`) or, without a count, as its returned rows show.
    private static func checkReached(_ response: HTTPResponse, rows: [Row], for mutation: Mutation) throws {
        guard mutation.expectsRows, mutation.operation == .update || mutation.operation == .delete else {
            return
        }
        let reached = ResponseDecoding.count(from: response) ?? (mutation.returning == nil ? nil : rows.count)
        if reached == 0 { throw PostgrestError.reachedNoRow }
    }

    /// Whether a failure leaves open that the server applied the write: no answer arrived after
    /// the request may have left, or an answer came that is not PostgREST's (a proxy's page). A
    /// PostgREST error, or a connection that was never made, says it was not applied. A send
    /// cancelled (the client closing, the caller's task cancelled) may have reached the server:
    /// a transport stops waiting for the answer, not the request already out.
    static func mayHaveBeenApplied(after error: any Error) -> Bool {
        switch error {
        case is CancellationError:
            return true
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
