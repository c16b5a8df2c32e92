/// The values a list's own filters give every row the server sent for it: a list filtered
/// `eq(c, v)` (or `is`, or `in` with one value) at the top level of its AND holds only rows with
/// `c = v`, whether or not it selects `c`.
///
/// The overlay uses them for the list's fetched rows only (a row a write added joined on what the
/// filters could not refuse, not on what they proved), and only where they decide as PostgreSQL
/// would: a write's condition on `c` written with the very same operator class and text (exactly
/// equal text reads as the same value under every column type), an upsert's conflict columns, a
/// key. A row that carries `c` is judged by its own value.
///
/// ```swift
/// // likes.select("post_id").eq("user_id", u): delete().eq("user_id", u).eq("post_id", p1)
/// // removes p1's row though the row carries no user_id.
/// ```
struct ImpliedValues: Sendable, Hashable {
    /// Each implied column's condition, as the list wrote it.
    private var conditions: [String: FilterCondition] = [:]
    /// The implied values, for keys and conflict columns.
    private var values: [String: JSONValue] = [:]

    /// The values `filters` (a list's, ANDed) imply.
    init(_ filters: [Filter]) {
        var conflicting: Set<String> = []
        for case .condition(let condition) in filters where !condition.negated {
            guard let value = Self.value(of: condition) else { continue }
            if let earlier = conditions[condition.column], !Self.same(earlier, condition) {
                conflicting.insert(condition.column)
            }
            conditions[condition.column] = condition
            values[condition.column] = value
        }
        for column in conflicting {
            conditions[column] = nil
            values[column] = nil
        }
    }

    /// Whether the list implies nothing.
    var isEmpty: Bool { conditions.isEmpty }

    /// `row` with the implied values of the columns it lacks.
    func filling(_ row: Row) -> Row {
        guard !isEmpty else { return row }
        var filled = row
        for (column, value) in values where row[column] == nil { filled[column] = value }
        return filled
    }

    /// `filters` (a write's, ANDed) without the conditions the implied values decide for `row`
    /// (a fetched row of the list that lacks their column): each is true there.
    func undecided(_ filters: [Filter], on row: Row) -> [Filter] {
        guard !isEmpty else { return filters }
        return filters.filter { filter in
            guard case .condition(let condition) = filter, !condition.negated, row[condition.column] == nil,
                let implied = conditions[condition.column]
            else { return true }
            return !Self.same(implied, condition)
        }
    }

    /// The value a condition gives its column, or `nil` when it gives none (a range, a list of
    /// several values, a pattern).
    private static func value(of condition: FilterCondition) -> JSONValue? {
        switch (condition.op, condition.operand) {
        case (.eq, .value(let text)): return .string(text)
        case (.in, .list(let texts)) where texts.count == 1: return .string(texts[0])
        case (.is, .value(let word)):
            switch word.lowercased() {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        default: return nil
        }
    }

    /// Whether two conditions on one column state the same value in the same words.
    private static func same(_ a: FilterCondition, _ b: FilterCondition) -> Bool {
        guard a.column == b.column, !a.negated, !b.negated else { return false }
        switch (equalityText(a), equalityText(b)) {
        case (let left?, let right?): return left == right
        default: break
        }
        if a.op == .is, b.op == .is, case .value(let left) = a.operand, case .value(let right) = b.operand {
            return left.lowercased() == right.lowercased()
        }
        return false
    }

    /// The text of `eq.v` or `in.(v)`.
    private static func equalityText(_ condition: FilterCondition) -> String? {
        switch (condition.op, condition.operand) {
        case (.eq, .value(let text)): return text
        case (.in, .list(let texts)) where texts.count == 1: return texts[0]
        default: return nil
        }
    }
}
