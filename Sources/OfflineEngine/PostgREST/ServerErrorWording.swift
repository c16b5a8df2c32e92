import Foundation

/// Plain words for PostgREST's statuses and codes, and the retry/authentication rules the sync
/// engine follows. Pure: the words come from the status and code only, never from the server's
/// message, so they carry no row data.
enum ServerErrorWording {
    /// A sentence such as "The server refused the write: a row with the same key already exists
    /// (HTTP 409, 23505)."
    static func sentence(status: Int, code: String?, message: String = "") -> String {
        // Status 0: no server answered; the engine set the write aside itself, in its own words.
        if status == 0 { return message.isEmpty ? "The write was set aside without an answer." : message }
        let safeCode = code.flatMap(Self.displayableCode)
        let suffix = safeCode.map { "(HTTP \(status), \($0))" } ?? "(HTTP \(status))"
        return "\(phrase(status: status, code: safeCode, message: message)) \(suffix)."
    }

    /// A code fit to show: 1 to 16 letters and digits.
    static func displayableCode(_ code: String) -> String? {
        guard (1...16).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return code
    }

    private static func phrase(status: Int, code: String?, message: String) -> String {
        let refusedWrite = "The server refused the write:"
        let refused = "The server refused the request:"
        if code == "42501" {
            return "\(refused) row-level security or the table's permissions do not allow it"
        }
        if isAuthenticationFailure(status: status, code: code, message: message) {
            return "\(refused) the sign-in has expired or is not valid"
        }
        switch code {
        case "23505": return "\(refusedWrite) a row with the same key already exists"
        case "23503":
            return "\(refusedWrite) it refers to a row that does not exist, or a row still refers to it"
        case "23502": return "\(refusedWrite) a required column has no value"
        case "23514": return "\(refusedWrite) a value breaks one of the table's check rules"
        case "22P02", "22007", "22008":
            return "\(refused) a value is not valid for its column's type"
        case "22003": return "\(refused) a number is out of range for its column"
        case "22001": return "\(refused) a value is too long for its column"
        case "P0001": return "\(refused) a database function raised an error"
        case "PGRST100": return "\(refused) the server could not parse the query"
        case "PGRST102": return "\(refusedWrite) the body is not valid or its rows have different columns"
        case "PGRST103": return "\(refused) the requested range is beyond the end of the results"
        case "PGRST116": return "\(refused) exactly one row was expected, but the result has zero or several"
        case "PGRST204": return "\(refusedWrite) a column in the request does not exist in the table"
        case "PGRST205", "42P01": return "\(refused) the table does not exist or is not exposed to the API"
        case "42703": return "\(refused) a column in the request does not exist"
        case "42883": return "\(refused) a filter uses an operator that does not apply to the column's type"
        case "PGRST201", "PGRST200": return "\(refused) an embedded table is ambiguous or not related"
        case "PGRST000", "PGRST001":
            return "The server cannot reach its database at the moment"
        case "PGRST002":
            return "The server is starting up or reloading its schema; try again shortly"
        case "PGRST003": return "The server timed out waiting for a database connection"
        case "57014": return "The server cancelled the query because it took too long"
        case "25006": return "\(refusedWrite) the database is read-only"
        default: break
        }
        switch status {
        case 400: return "\(refused) it is not valid"
        case 401: return "\(refused) the sign-in is missing or not valid"
        case 403: return "\(refused) it is not allowed"
        case 404: return "\(refused) the table or row was not found"
        case 405: return "\(refused) the method is not allowed here"
        case 406: return "\(refused) the server cannot answer in the requested form"
        case 408: return "The server gave up waiting for the request"
        case 409: return "\(refusedWrite) it conflicts with existing data"
        case 413: return "\(refused) it is too large"
        case 416: return "\(refused) the requested range is beyond the end of the results"
        case 422: return "\(refused) it cannot be processed"
        case 429: return "The server is receiving too many requests; try again later"
        case 503: return "The server is unavailable at the moment"
        case 504: return "The server timed out"
        case 520...599: return "The server or a proxy in front of it failed"
        case 500...519: return "The server failed to answer"
        case 200..<300: return "The server answered with an unexpected body"
        default: return "The server refused the request"
        }
    }

    /// Whether a status may succeed later: 408, 429 and 5xx.
    static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }

    /// Whether a status and code say the credentials were refused: 401 or an invalid/expired JWT.
    static func isAuthenticationFailure(status: Int, code: String?, message: String) -> Bool {
        if status == 401 { return true }
        if code == "PGRST301" || code == "PGRST303" { return true }
        return message.localizedCaseInsensitiveContains("jwt expired")
    }
}
