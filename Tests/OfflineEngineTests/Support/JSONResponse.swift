import Foundation

@testable import OfflineEngine

/// A JSON response the way PostgREST sends one.
func jsonResponse(_ rows: [Row], status: Int = 200) -> HTTPResponse {
    HTTPResponse(
        status: status, headers: ["Content-Type": "application/json"],
        body: JSONText.data(.array(rows.map(\.json))))
}
