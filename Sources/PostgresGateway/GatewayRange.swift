import Foundation
import OfflineEngine

/// The rows a read asks for, from `limit`/`offset` and the `Range` header, as PostgREST's
/// `RangeQuery` computes them: a negative offset is no offset, a negative limit or a `Range`
/// whose first index is past its last is 416 `PGRST103`, a `Range` it cannot read is ignored.
struct GatewayRange {
    /// The first row (zero or more).
    let offset: Int
    /// How many rows at most, or `nil` for every row from `offset`.
    let limit: Int?

    /// No limit, no offset: what writes use.
    static let all = GatewayRange(offset: 0, limit: nil)

    private init(offset: Int, limit: Int?) {
        self.offset = offset
        self.limit = limit
    }

    /// The range of `query` with `header` (the `Range` header, read for GET only).
    init(query: QueryDescription, header: String?) throws(GatewayRefusal) {
        let requested = header.map(Self.parse) ?? Bounds(lower: 0, upper: nil)
        var asked = Bounds(lower: 0, upper: nil)
        switch (query.limit, query.offset) {
        case (let limit?, let offset?): asked = Bounds(lower: offset, upper: offset + limit - 1)
        case (let limit?, nil): asked = Bounds(lower: 0, upper: limit - 1)
        case (nil, let offset?): asked = Bounds(lower: offset, upper: nil)
        case (nil, nil): break
        }
        // `limit=0` is the one empty range allowed, and it ignores the header.
        if asked.upper == -1 {
            self.init(offset: 0, limit: 0)
            return
        }
        let top = requested.intersection(asked)
        guard !top.isEmpty else {
            throw GatewayRefusal(
                status: 416, code: "PGRST103", message: "Requested range not satisfiable",
                details: requested.isEmpty
                    ? "The lower boundary must be lower than or equal to the upper boundary in the Range header."
                    : "Limit should be greater than or equal to zero.")
        }
        self.init(offset: top.lower, limit: top.upper.map { $0 - top.lower + 1 })
    }

    /// The SQL that keeps the range's rows (an empty string for every row).
    var sql: String {
        var text = ""
        if let limit { text += " LIMIT \(limit)" }
        if offset > 0 { text += " OFFSET \(offset)" }
        return text
    }

    /// `first-last/total` for an answer of `count` rows, as PostgREST writes it.
    func contentRange(count: Int, total: Int?) -> String {
        Self.contentRange(lower: offset, upper: offset + count - 1, total: total)
    }

    /// PostgREST's `contentRangeH`: `*` for the span when it is empty or the total is zero.
    static func contentRange(lower: Int, upper: Int, total: Int?) -> String {
        let span = total != 0 && lower <= upper ? "\(lower)-\(upper)" : "*"
        return span + "/" + (total.map(String.init) ?? "*")
    }

    /// Indexes from `lower` to `upper` (`nil`: no end), both included.
    private struct Bounds {
        var lower: Int
        var upper: Int?

        var isEmpty: Bool { upper.map { $0 < lower } ?? false }

        func intersection(_ other: Bounds) -> Bounds {
            let upper: Int? =
                switch (self.upper, other.upper) {
                case (let a?, let b?): min(a, b)
                case (let a?, nil): a
                case (nil, let b): b
                }
            return Bounds(lower: max(lower, other.lower), upper: upper)
        }
    }

    /// `Range: 10-19` or `10-`; anything else reads as every row, as PostgREST reads it.
    private static func parse(_ header: String) -> Bounds {
        let parts = header.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
            parts[1].allSatisfy(\.isASCIIDigit), let lower = Int(parts[0])
        else { return Bounds(lower: 0, upper: nil) }
        if parts[1].isEmpty { return Bounds(lower: lower, upper: nil) }
        guard let upper = Int(parts[1]) else { return Bounds(lower: 0, upper: nil) }
        return Bounds(lower: lower, upper: upper)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
