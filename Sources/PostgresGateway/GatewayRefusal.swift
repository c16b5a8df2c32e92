import Foundation
import OfflineEngine

/// An answer PostgREST gives for an error: its status and JSON body (`code`, `message`,
/// `details`, `hint`).
struct GatewayRefusal: Error {
    let status: Int
    let code: String
    let message: String
    var details: String?
    var hint: String?
    /// The `Content-Range` a 416 carries (`*/total`).
    var contentRange: String?
    /// `details` that are JSON rather than text (PostgREST's 300 lists the relationships found).
    var detailsJSON: JSONValue?

    /// The answer's HTTP form.
    var response: HTTPResponse {
        var response = PostgrestError(
            status: status, code: code, message: message, details: details, hint: hint
        )
        .response
        if let detailsJSON {
            let body: JSONValue = .object([
                "code": .string(code), "message": .string(message), "details": detailsJSON,
                "hint": hint.map(JSONValue.string) ?? .null,
            ])
            response.body = JSONText.data(body)
        }
        if status == 401 { response.headers["WWW-Authenticate"] = "Bearer" }
        if let contentRange { response.headers["Content-Range"] = contentRange }
        return response
    }

    /// A request the gateway does not translate.
    static func unsupported(_ what: String) -> GatewayRefusal {
        GatewayRefusal(
            status: 400, code: "PGRST100", message: "The local PostgREST gateway does not support \(what).")
    }

}

extension GatewayRefusal {
    /// PostgREST's answer for a PostgreSQL error: its SQLSTATE mapped to a status as PostgREST
    /// maps it (42501 is 401 for the anonymous role, 403 for a signed-in one).
    /// `table` (`schema.table`) names the request's table in PostgREST's 404 for an unknown one.
    init(_ error: PostgresError, anonymous: Bool, table: String) {
        let state = error.sqlState ?? "XX000"
        if state == "42P01" {
            self.init(
                status: 404, code: "PGRST205",
                message: "Could not find the table '\(table)' in the schema cache")
            return
        }
        self.init(
            status: Self.status(of: state, message: error.message, anonymous: anonymous), code: state,
            message: error.message, details: error.detail, hint: error.hint)
    }

    private static func status(of state: String, message: String, anonymous: Bool) -> Int {
        switch state {
        // A token naming a role that does not exist (PostgREST's `Error.hs`).
        case "22023" where message.hasPrefix("role") && message.hasSuffix("does not exist"): return 401
        case "42501": return anonymous ? 401 : 403
        case "23505", "23503": return 409
        case "25006": return 405
        case "42883", "42P01": return 404
        case "P0001": return 400
        case "57014": return 500
        default: break
        }
        switch state.prefix(2) {
        case "08", "53": return 503
        case "09", "25", "2D", "38", "39", "3B", "40", "55", "57", "58", "F0", "HV", "P0", "XX": return 500
        case "0L", "0P", "28": return 403
        case "54": return 413
        default: return 400
        }
    }
}
