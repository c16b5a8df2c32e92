import Foundation

@testable import OfflineEngine

/// A JSON response the way PostgREST sends one, its `Content-Range` included (PostgREST sends one
/// with every read and write; a write's answer without it is not taken for PostgREST's).
func jsonResponse(_ rows: [Row], status: Int = 200) -> HTTPResponse {
    HTTPResponse(
        status: status,
        headers: [
            "Content-Type": "application/json",
            "Content-Range": readRange(rows.count),
        ],
        body: JSONText.data(.array(rows.map(\.json))))
}

/// PostgREST's answer to a write that asked for no rows back (`return=minimal`): `status` (201 to
/// an insert, 204 to an update or delete) with its `Content-Range` and no body.
func minimalWriteResponse(status: Int = 201) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Range": status == 201 ? "*/*" : "0-0/*"])
}

/// The `Content-Range` PostgREST sends with `count` rows read (or returned), total not counted.
func readRange(_ count: Int) -> String {
    count == 0 ? "*/*" : "0-\(count - 1)/*"
}
