import Foundation

/// The server refused a request and said why in PostgREST's JSON error body
/// (`{"code","message","details","hint"}`).
///
/// ``description`` says what happened in plain words from the status and code only; the
/// server's own ``message``, ``details`` and ``hint`` may quote row data, so they stay in their
/// properties (for logs and for the app to show deliberately).
public struct PostgrestError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The HTTP status, such as 409.
    public var status: Int
    /// The PostgREST or PostgreSQL error code, such as `23505` or `PGRST116`.
    public var code: String?
    /// The server's message, verbatim; it may quote values.
    public var message: String
    /// The server's details, verbatim; they may quote row data (`Key (id)=(1) already exists.`).
    public var details: String?
    /// The server's hint, verbatim.
    public var hint: String?
    /// The wait the server asked for in `Retry-After`, if any.
    public var retryAfter: Duration?

    /// An error from its parts.
    public init(
        status: Int, code: String? = nil, message: String = "", details: String? = nil,
        hint: String? = nil, retryAfter: Duration? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.hint = hint
        self.retryAfter = retryAfter
    }

    /// The error a response's JSON error body describes, or `nil` when the body is not one.
    init?(response: HTTPResponse) {
        guard let json = try? JSONText.parse(response.body), case .object(let members) = json else {
            return nil
        }
        let code = members["code"]?.stringValue ?? members["code"]?.numberValue?.text
        let message = members["message"]?.stringValue
        guard code != nil || message != nil else { return nil }
        self.init(
            status: response.status, code: code, message: message ?? "",
            details: Self.text(members["details"]), hint: Self.text(members["hint"]),
            retryAfter: response.retryAfter)
    }

    /// The answer PostgREST gives for this error: its status and JSON body (`code`, `message`,
    /// `details`, `hint`), the inverse of ``init(response:)``; the stand-ins answer with it.
    package var response: HTTPResponse {
        let body: JSONValue = .object([
            "code": code.map(JSONValue.string) ?? .null, "message": .string(message),
            "details": details.map(JSONValue.string) ?? .null, "hint": hint.map(JSONValue.string) ?? .null,
        ])
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
            body: JSONText.data(body))
    }

    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: return JSONText.string(other)
        }
    }

    public var description: String {
        ServerErrorWording.sentence(status: status, code: code, message: message)
    }

    public var errorDescription: String? { description }

    /// Whether trying again later may work: 408, 429 and 5xx.
    public var isRetryable: Bool { ServerErrorWording.isRetryable(status: status) }

    /// Whether the server refused the credentials (401, an invalid or expired JWT), so the write
    /// should wait for a new session rather than be rejected.
    public var isAuthenticationFailure: Bool {
        ServerErrorWording.isAuthenticationFailure(status: status, code: code, message: message)
    }
}

extension PostgrestError {
    /// The code of a write that reached no row though it had to (``RejectedMutation/conflictCode``).
    static let reachedNoRowCode = "OFFLINE_CONFLICT"

    /// The refusal of a write that reached no row though it had to (status 409: the server holds
    /// nothing of it).
    static let reachedNoRow = PostgrestError(
        status: 409, code: reachedNoRowCode,
        message: "This change reached no row: the row was deleted or changed since it was read.",
        details: nil,
        hint: "Fetch the rows again, then retry the change or discard it.")
}
