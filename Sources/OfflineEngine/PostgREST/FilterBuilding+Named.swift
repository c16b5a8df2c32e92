import Foundation

extension FilterOperator {
    /// Range strictly left of (`<<`).
    public static let strictlyLeft = FilterOperator(rawValue: "sl")
    /// Range strictly right of (`>>`).
    public static let strictlyRight = FilterOperator(rawValue: "sr")
    /// Range that does not extend to the left of (`&>`).
    public static let notExtendingLeft = FilterOperator(rawValue: "nxl")
    /// Range that does not extend to the right of (`&<`).
    public static let notExtendingRight = FilterOperator(rawValue: "nxr")
    /// Range adjacent to (`-|-`).
    public static let adjacent = FilterOperator(rawValue: "adj")
}

/// How ``FilterBuilding/textSearch(_:query:config:type:)`` reads its query text, as
/// supabase-swift's `TextSearchType`.
public enum TextSearchType: String, Sendable, CaseIterable {
    /// `plainto_tsquery`: the words, all of them.
    case plain = "pl"
    /// `phraseto_tsquery`: the words as a phrase.
    case phrase = "ph"
    /// `websearch_to_tsquery`: as a web search engine reads it.
    case websearch = "w"
}

/// The rest of supabase-swift's named filters, name for name. Each sends what supabase-swift
/// sends; the ones the overlay cannot evaluate on the device (patterns over lists, arrays,
/// ranges, text search) leave a row's match unknown, so a write that touches such a list is
/// shown as pending until the list is fetched again.
extension FilterBuilding {
    /// Rows whose `column` matches every LIKE pattern of `patterns` (`like(all).{a,b}`).
    ///
    /// ```swift
    /// client.from("tasks").select().likeAllOf("title", patterns: ["*milk*", "*eggs*"])
    /// ```
    public func likeAllOf<Pattern: FilterValue>(_ column: String, patterns: [Pattern]) -> Self {
        filter(column, operator: "like(all)", value: patterns)
    }

    /// Rows whose `column` matches one of the LIKE patterns (`like(any).{a,b}`).
    public func likeAnyOf<Pattern: FilterValue>(_ column: String, patterns: [Pattern]) -> Self {
        filter(column, operator: "like(any)", value: patterns)
    }

    /// Rows whose `column` matches every ILIKE pattern (`ilike(all).{a,b}`).
    public func iLikeAllOf<Pattern: FilterValue>(_ column: String, patterns: [Pattern]) -> Self {
        filter(column, operator: "ilike(all)", value: patterns)
    }

    /// Rows whose `column` matches one of the ILIKE patterns (`ilike(any).{a,b}`).
    public func iLikeAnyOf<Pattern: FilterValue>(_ column: String, patterns: [Pattern]) -> Self {
        filter(column, operator: "ilike(any)", value: patterns)
    }

    /// ``iLikeAllOf(_:patterns:)``, spelled in lower case.
    public func ilikeAllOf<Pattern: FilterValue>(_ column: String, patterns: [Pattern]) -> Self {
        iLikeAllOf(column, patterns: patterns)
    }

    /// ``iLikeAnyOf(_:patterns:)``, spelled in lower case.
    public func ilikeAnyOf<Pattern: FilterValue>(_ column: String, patterns: [Pattern]) -> Self {
        iLikeAnyOf(column, patterns: patterns)
    }

    /// Rows whose `column` equals none of `values` (`not.in.(a,b)`); evaluated on the device.
    public func notIn<Value: FilterValue>(_ column: String, values: [Value]) -> Self {
        adding(column, .in, .list(values.map(\.rawValue)), negated: true)
    }

    /// Rows whose jsonb, array or range `column` contains `value` (`cs`), written as PostgREST
    /// reads it (`{a,b}`, `[1,5)`, a JSON object).
    public func contains(_ column: String, value: some FilterValue) -> Self {
        adding(column, .cs, .value(value.rawValue))
    }

    /// Rows whose jsonb, array or range `column` is contained by `value` (`cd`).
    public func containedBy(_ column: String, value: some FilterValue) -> Self {
        adding(column, .cd, .value(value.rawValue))
    }

    /// Rows whose array or range `column` shares an element with `value` (`ov`).
    public func overlaps(_ column: String, value: some FilterValue) -> Self {
        adding(column, .ov, .value(value.rawValue))
    }

    /// Rows whose range `column` lies wholly before `range` (`sl`).
    public func rangeLt(_ column: String, range: some FilterValue) -> Self {
        adding(column, .strictlyLeft, .value(range.rawValue))
    }

    /// Rows whose range `column` lies wholly after `range` (`sr`).
    public func rangeGt(_ column: String, range: some FilterValue) -> Self {
        adding(column, .strictlyRight, .value(range.rawValue))
    }

    /// Rows whose range `column` does not extend to the left of `range` (`nxl`).
    public func rangeGte(_ column: String, range: some FilterValue) -> Self {
        adding(column, .notExtendingLeft, .value(range.rawValue))
    }

    /// Rows whose range `column` does not extend to the right of `range` (`nxr`).
    public func rangeLte(_ column: String, range: some FilterValue) -> Self {
        adding(column, .notExtendingRight, .value(range.rawValue))
    }

    /// Rows whose range `column` is adjacent to `range` (`adj`).
    public func rangeAdjacent(_ column: String, range: some FilterValue) -> Self {
        adding(column, .adjacent, .value(range.rawValue))
    }

    /// Rows whose text or tsvector `column` matches the text search `query` (`fts`, `plfts`,
    /// `phfts`, `wfts`, with `(config)` when given).
    ///
    /// ```swift
    /// client.from("notes").select().textSearch("body", query: "milk eggs", config: "english", type: .plain)
    /// ```
    public func textSearch(
        _ column: String, query: some FilterValue, config: String? = nil, type: TextSearchType? = nil
    ) -> Self {
        let op = (type?.rawValue ?? "") + "fts" + (config.map { "(\($0))" } ?? "")
        return filter(column, operator: op, value: query)
    }

    /// Rows whose columns equal each value of `query` (one `eq` per column, in column order).
    public func match(_ query: [String: any FilterValue]) -> Self {
        var filtered = self
        for (column, value) in query.sorted(by: { $0.key < $1.key }) {
            filtered = filtered.eq(column, value: value)
        }
        return filtered
    }

    /// Rows that fail `column=<op>.<value>` (`not.<op>.<value>`), with a named operator.
    public func not(_ column: String, operator op: FilterOperator, value: some FilterValue) -> Self {
        not(column, operator: op.rawValue, value: value)
    }
}
