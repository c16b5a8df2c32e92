import Foundation

@testable import OfflineEngine

extension HTTPRequest {
    /// The `Authorization` header.
    var authorization: String? { headers["Authorization"] }

    /// The body's rows, for writes.
    var bodyRows: [Row] {
        guard let body, let json = try? JSONText.parse(body) else { return [] }
        return (try? Row.rows(from: json)) ?? []
    }
}
