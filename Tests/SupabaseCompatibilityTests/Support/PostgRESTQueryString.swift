import Foundation

/// Decodes a raw query string the way PostgREST does (http-types' `parseQueryReplacePlus True`):
/// pairs split on `&` or `;`, a raw `+` read as a space, then `%XX` decoded as UTF-8.
///
/// Comparing decoded pairs makes the spelling of the encoding moot, while a `+` sent raw
/// (supabase-swift's habit) still shows up as the space PostgREST would read.
enum PostgRESTQueryString {
    struct Undecodable: Error, CustomStringConvertible {
        var text: String
        var description: String { "not percent-decodable: \(text)" }
    }

    /// The pairs of `query` (the part after `?`, still encoded), in the order sent.
    static func pairs(_ query: String?) throws -> [QueryPair] {
        guard let query, !query.isEmpty else { return [] }
        return try query.split(whereSeparator: { $0 == "&" || $0 == ";" }).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? parts[1] : ""
            return QueryPair(name: try decode(parts[0]), value: try decode(value))
        }
    }

    private static func decode(_ text: Substring) throws -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else { throw Undecodable(text: String(text)) }
        return decoded
    }
}
