import Foundation

/// Turns HTTP responses into rows or typed errors: the one place the engine reads PostgREST's
/// answers.
enum ResponseDecoding {
    /// The error an unsuccessful response stands for: a ``PostgrestError`` when the body is
    /// PostgREST's JSON error, else an ``UnexpectedResponseError``.
    static func failure(for response: HTTPResponse) -> any Error {
        if let error = PostgrestError(response: response) { return error }
        let looksLikeJSON = response.mediaType.map { $0.contains("json") } ?? false
        let parses = (try? JSONText.parse(response.body)) != nil
        let reason: UnexpectedResponseError.Reason = looksLikeJSON || parses ? .malformedJSON : .notJSON
        return UnexpectedResponseError(
            status: response.status, contentType: response.mediaType, reason: reason, body: response.body,
            retryAfter: response.retryAfter)
    }

    /// The rows of a successful response; throws the response's failure when it is not a
    /// success, or ``UnexpectedResponseError`` when it is not PostgREST's rows: an empty body (a
    /// read is always answered with JSON, `[]` at the least), a declared type other than JSON (a
    /// portal's page), or a body that is not a JSON array or object of rows.
    static func rows(from response: HTTPResponse) throws -> [Row] {
        guard response.isSuccess else { throw failure(for: response) }
        if isBlank(response.body) {
            throw UnexpectedResponseError(
                status: response.status, contentType: response.mediaType, reason: .notJSON)
        }
        if let type = response.mediaType, !type.contains("json") {
            throw UnexpectedResponseError(
                status: response.status, contentType: type, reason: .notJSON, body: response.body)
        }
        let json: JSONValue
        do {
            json = try JSONText.parse(response.body)
        } catch {
            let isJSON = response.mediaType.map { $0.contains("json") } ?? true
            throw UnexpectedResponseError(
                status: response.status, contentType: response.mediaType,
                reason: isJSON ? .malformedJSON : .notJSON, body: response.body)
        }
        do {
            return try Row.rows(from: json)
        } catch {
            throw UnexpectedResponseError(
                status: response.status, contentType: response.mediaType, reason: .malformedJSON,
                body: response.body)
        }
    }

    /// The total PostgREST counted (`Content-Range: 0-24/3573` or `*/3573`), when it was asked
    /// for and known (`*` when not counted).
    static func count(from response: HTTPResponse) -> Int? {
        guard let range = response.headers["Content-Range"], let slash = range.lastIndex(of: "/") else {
            return nil
        }
        return Int(range[range.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    /// Whether a body holds nothing but white space.
    static func isBlank(_ body: Data) -> Bool {
        body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// Whether trying again later may work: transport failures, 408, 429 and 5xx.
    static func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case let error as TransportError: return error.isRetryable
        case let error as PostgrestError: return error.isRetryable
        case let error as UnexpectedResponseError: return error.isRetryable
        default: return false
        }
    }

    /// Whether the server refused the credentials (401, invalid or expired JWT).
    static func isAuthenticationFailure(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgrestError: return error.isAuthenticationFailure
        case let error as UnexpectedResponseError: return error.isAuthenticationFailure
        case is TokenUnavailable: return true
        default: return false
        }
    }

    /// The wait the server asked for, if any.
    static func retryAfter(_ error: any Error) -> Duration? {
        switch error {
        case let error as PostgrestError: return error.retryAfter
        case let error as UnexpectedResponseError: return error.retryAfter
        default: return nil
        }
    }
}
