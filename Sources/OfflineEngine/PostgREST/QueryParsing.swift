import Foundation

/// Reads a query back from its URL parameters: the inverse of ``RequestBuilder``'s rendering.
/// The cache uses it to recover a stored list's query from its canonical key, and the in-memory
/// server to read the requests it receives.
extension QueryDescription {
    /// Why parameters could not be read as a query.
    struct Unreadable: Error {}

    /// Reads `schema/table?query` as written by ``canonicalKey``, or `nil`.
    init?(canonicalKey: String) {
        let parts = canonicalKey.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0].split(separator: "/", maxSplits: 1).map {
            $0.removingPercentEncoding ?? String($0)
        }
        guard path.count == 2 else { return nil }
        // Read by hand: `URLComponents` traps on a query with an invalid escape, and a stored key
        // comes from a file (found by the parser fuzzing).
        var parameters: [QueryParameter] = []
        for item in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = pair[0].removingPercentEncoding,
                let value = pair.count > 1 ? pair[1].removingPercentEncoding : ""
            else { return nil }
            parameters.append(QueryParameter(name: name, value: value))
        }
        guard
            let query = try? QueryDescription(
                schema: path[0] == "public" ? nil : path[0], table: path[1], parameters: parameters)
        else { return nil }
        self = query
    }

    /// Decoded name/value pairs from percent-encoded query items.
    package static func parameters(_ items: [URLQueryItem]) -> [QueryParameter] {
        items.map { item in
            QueryParameter(
                name: item.name.removingPercentEncoding ?? item.name,
                value: item.value?.removingPercentEncoding ?? "")
        }
    }

    /// A query from decoded URL parameters; write-only parameters (`columns`, `on_conflict`) are
    /// skipped.
    package init(schema: String?, table: String, parameters: [QueryParameter]) throws {
        self.init(schema: schema, table: table)
        for parameter in parameters {
            switch parameter.name {
            case "select": select = QueryDescription.normalizedSelect(parameter.value)
            case "order": order = try Self.orderTerms(parameter.value)
            case "limit": limit = Int(parameter.value)
            case "offset": offset = Int(parameter.value)
            case "columns", "on_conflict": continue
            case "or", "and", "not.or", "not.and":
                guard let parts = FilterGrammar.logicParts(parameter.value) else { throw Unreadable() }
                let negated = parameter.name.hasPrefix("not.")
                filters.append(
                    parameter.name.hasSuffix("or")
                        ? .or(parts, negated: negated) : .and(parts, negated: negated))
            default:
                if Self.isEmbedScoped(parameter.name) {
                    embedParameters.append(parameter)
                } else {
                    filters.append(
                        FilterGrammar.condition(column: parameter.name, expression: parameter.value))
                }
            }
        }
    }

    /// `actors.order`, `actors.first_name`: a parameter scoped to an embedded table (a dot
    /// outside double quotes).
    private static func isEmbedScoped(_ name: String) -> Bool {
        var quoted = false
        for character in name {
            if character == "\"" { quoted.toggle() }
            if character == "." && !quoted { return true }
        }
        return false
    }

    private static func orderTerms(_ text: String) throws -> [OrderTerm] {
        try text.split(separator: ",").map { part in
            let pieces = part.split(separator: ".").map(String.init)
            guard let column = pieces.first else { throw Unreadable() }
            let nullsFirst: Bool? =
                pieces.contains("nullsfirst") ? true : pieces.contains("nullslast") ? false : nil
            return OrderTerm(column: column, ascending: !pieces.contains("desc"), nullsFirst: nullsFirst)
        }
    }
}
