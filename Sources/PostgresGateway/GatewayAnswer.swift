import Foundation
import OfflineEngine

/// The HTTP answer PostgREST gives for a statement's result: its status, `Content-Range`,
/// `Content-Type` (only with a body), `Location` and `Preference-Applied`
/// (PostgREST's `Response.hs`).
struct GatewayAnswer {
    /// The statement's result row, read.
    struct Result {
        var rows: String
        var count: Int
        var total: Int?
        var first: String?
        var updated: Int

        init(_ row: [String?]) {
            func cell(_ index: Int) -> String? { index < row.count ? row[index] : nil }
            rows = cell(0) ?? "[]"
            count = cell(1).flatMap { Int($0) } ?? 0
            total = cell(2).flatMap { Int($0) }
            first = cell(3)
            updated = cell(4).flatMap { Int($0) } ?? 0
        }
    }

    /// PostgREST's 406 for a request for one object that reached `count` rows (a write's
    /// transaction is rolled back before it is sent).
    static func notSingular(_ count: Int) -> GatewayRefusal {
        GatewayRefusal(
            status: 406, code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
            details: "The result contains \(count) rows")
    }

    static func response(
        _ result: Result, request: GatewayRequest, statement: GatewayStatement, table: GatewayTable?
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        let body = Data(((request.singular ? result.first : result.rows) ?? "null").utf8)
        let contentType =
            request.singular
            ? "application/vnd.pgrst.object+json; charset=utf-8" : "application/json; charset=utf-8"
        let prefer = request.prefer
        switch request.method {
        case .get, .head:
            let range = request.range
            headers["Content-Range"] = range.contentRange(count: result.count, total: result.total)
            headers["Preference-Applied"] = prefer.appliedToRead
            headers["Content-Type"] = contentType
            var status = 200
            if let total = result.total {
                if range.offset > total {
                    var refusal = GatewayRefusal(
                        status: 416, code: "PGRST103", message: "Requested range not satisfiable",
                        details:
                            "An offset of \(range.offset) was requested, but there are only \(total) rows.")
                    refusal.contentRange = headers["Content-Range"]
                    return refusal.response
                }
                if result.count < total { status = 206 }
            }
            return HTTPResponse(
                status: status, headers: headers, body: request.method == .head ? Data() : body)
        case .post:
            headers["Content-Range"] = GatewayRange.contentRange(
                lower: 1, upper: 0, total: prefer.countsWrites ? result.count : nil)
            headers["Preference-Applied"] = prefer.appliedToWrite(
                resolutionApplies: statement.resolutionApplied, missingApplies: true)
            if prefer.representation == .headersOnly, result.count == 1,
                let location = location(result, table)
            {
                headers["Location"] = location
            }
            let inserted = result.count - result.updated
            let status = statement.isMergeUpsert && inserted <= 0 ? 200 : 201
            guard prefer.representation == .full else {
                return HTTPResponse(status: status, headers: headers)
            }
            headers["Content-Type"] = contentType
            return HTTPResponse(status: status, headers: headers, body: body)
        case .patch, .delete:
            let total = prefer.countsWrites ? result.count : nil
            headers["Content-Range"] =
                request.method == .patch
                ? GatewayRange.contentRange(lower: 0, upper: result.count - 1, total: total)
                : GatewayRange.contentRange(lower: 1, upper: 0, total: total)
            headers["Preference-Applied"] = prefer.appliedToWrite(
                resolutionApplies: false, missingApplies: request.method == .patch)
            guard prefer.representation == .full else { return HTTPResponse(status: 204, headers: headers) }
            headers["Content-Type"] = contentType
            return HTTPResponse(status: 200, headers: headers, body: body)
        }
    }

    /// `/table?key=eq.value` for the one inserted row, from its primary key's values.
    private static func location(_ result: Result, _ table: GatewayTable?) -> String? {
        guard let table, !table.primaryKey.isEmpty, let first = result.first,
            case .object(let row)? = try? JSONText.parse(Data(first.utf8))
        else { return nil }
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let pairs = table.primaryKey.map { column -> String in
            let value = row[column].flatMap(GatewayBody.text(of:)) ?? "null"
            let encoded = ("eq." + value).addingPercentEncoding(withAllowedCharacters: allowed) ?? value
            return (column.addingPercentEncoding(withAllowedCharacters: allowed) ?? column) + "=" + encoded
        }
        return "/" + table.name + "?" + pairs.joined(separator: "&")
    }
}
