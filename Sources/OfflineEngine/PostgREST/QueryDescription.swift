import Foundation

/// Everything that defines a read: table, columns, filters, order, range and the options of the
/// tables it embeds. Two reads with equal descriptions share one cached list.
public struct QueryDescription: Sendable, Hashable {
    /// The schema, or `nil` for the default (`public`).
    public var schema: String?
    /// The table or view.
    public var table: String
    /// The `select` text with whitespace outside quotes removed; `*` by default.
    public var select: String
    /// The top-level filters, ANDed.
    public var filters: [Filter]
    /// The order terms, in order.
    public var order: [OrderTerm]
    /// `limit`, if any.
    public var limit: Int?
    /// `offset`, if any.
    public var offset: Int?
    /// Parameters scoped to an embedded table (`actors.order=...`, `actors.limit=...`,
    /// `actors.first_name=eq.x`), kept in the order they were given.
    public var embedParameters: [QueryParameter]

    /// A read of every column of `table` with no filters.
    public init(
        schema: String? = nil, table: String, select: String = "*", filters: [Filter] = [],
        order: [OrderTerm] = [], limit: Int? = nil, offset: Int? = nil,
        embedParameters: [QueryParameter] = []
    ) {
        self.schema = schema
        self.table = table
        self.select = QueryDescription.normalizedSelect(select)
        self.filters = filters
        self.order = order
        self.limit = limit
        self.offset = offset
        self.embedParameters = embedParameters
    }

    /// `select` text without whitespace outside double quotes, as supabase-swift sends it.
    public static func normalizedSelect(_ columns: String) -> String {
        var quoted = false
        var result = ""
        for character in columns {
            if character == "\"" { quoted.toggle() }
            if !quoted && character.isWhitespace { continue }
            result.append(character)
        }
        return result.isEmpty ? "*" : result
    }

    /// The comma-separated items of `select`, outside parentheses and double quotes: the
    /// overlay reads them for the columns a row carries, the stand-in server for its subqueries.
    package static func topLevelItems(of select: String) -> [String] {
        var items = [String]()
        var current = ""
        var depth = 0
        var quoted = false
        for character in select {
            if character == "\"" { quoted.toggle() }
            if !quoted {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if character == "," && depth == 0 {
                    items.append(current)
                    current = ""
                    continue
                }
            }
            current.append(character)
        }
        items.append(current)
        return items
    }
}
