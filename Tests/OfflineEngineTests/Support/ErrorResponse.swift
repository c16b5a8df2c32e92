import Foundation

@testable import OfflineEngine

/// A PostgREST error response.
func errorResponse(
    status: Int, code: String, message: String = "refused", details: String? = nil, hint: String? = nil,
    retryAfter: Int? = nil
) -> HTTPResponse {
    var body: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
    body["details"] = details.map(JSONValue.string) ?? .null
    body["hint"] = hint.map(JSONValue.string) ?? .null
    var headers: HTTPHeaders = ["Content-Type": "application/json"]
    if let retryAfter { headers["Retry-After"] = String(retryAfter) }
    return HTTPResponse(status: status, headers: headers, body: JSONText.data(.object(body)))
}
