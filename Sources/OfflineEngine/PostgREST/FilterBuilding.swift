import Foundation

/// The filters reads and writes share (`eq`, `in`, `or`, ...), named as in supabase-swift, so a
/// query reads the same whichever it is.
///
/// A column holding a `.` outside double quotes (`actors.first_name`) filters an embedded table:
/// it becomes an embed-scoped parameter rather than a top-level filter, and is never evaluated
/// locally.
public protocol FilterBuilding: Sendable {
    /// This query with one more top-level filter, ANDed with the others.
    func addingFilter(_ filter: Filter) -> Self
    /// This query with one more parameter scoped to an embedded table (`actors.order=...`).
    func addingEmbedParameter(_ parameter: QueryParameter) -> Self
}

extension FilterBuilding {
    /// Rows whose `column` equals `value` (`eq`).
    public func eq(_ column: String, value: some FilterValue) -> Self {
        if (value as? JSONValue) == .null { return adding(column, .is, .value("null")) }
        return adding(column, .eq, .value(value.rawValue))
    }

    /// Rows whose `column` differs from `value` (`neq`); NULLs match neither `eq` nor `neq`.
    public func neq(_ column: String, value: some FilterValue) -> Self {
        if (value as? JSONValue) == .null { return adding(column, .is, .value("null"), negated: true) }
        return adding(column, .neq, .value(value.rawValue))
    }

    /// Rows whose `column` is greater than `value` (`gt`).
    public func gt(_ column: String, value: some FilterValue) -> Self {
        adding(column, .gt, .value(value.rawValue))
    }

    /// Rows whose `column` is greater than or equal to `value` (`gte`).
    public func gte(_ column: String, value: some FilterValue) -> Self {
        adding(column, .gte, .value(value.rawValue))
    }

    /// Rows whose `column` is less than `value` (`lt`).
    public func lt(_ column: String, value: some FilterValue) -> Self {
        adding(column, .lt, .value(value.rawValue))
    }

    /// Rows whose `column` is less than or equal to `value` (`lte`).
    public func lte(_ column: String, value: some FilterValue) -> Self {
        adding(column, .lte, .value(value.rawValue))
    }

    /// Rows whose `column` matches a LIKE pattern (`*` or `%` for any run of characters).
    public func like(_ column: String, pattern: some FilterValue) -> Self {
        adding(column, .like, .value(pattern.rawValue))
    }

    /// Rows whose `column` matches a LIKE pattern, ignoring case.
    public func ilike(_ column: String, pattern: some FilterValue) -> Self {
        adding(column, .ilike, .value(pattern.rawValue))
    }

    /// Rows whose `column` matches a LIKE pattern; the same as ``like(_:pattern:)``.
    public func like(_ column: String, value: some FilterValue) -> Self {
        like(column, pattern: value)
    }

    /// Rows whose `column` matches a LIKE pattern ignoring case; the same as ``ilike(_:pattern:)``.
    public func ilike(_ column: String, value: some FilterValue) -> Self {
        ilike(column, pattern: value)
    }

    /// Rows whose `column` equals one of `values` (`in`); an empty list matches no row.
    public func `in`<Value: FilterValue>(_ column: String, values: [Value]) -> Self {
        adding(column, .in, .list(values.map(\.rawValue)))
    }

    /// Rows whose `column` IS NULL (`nil`), IS TRUE or IS FALSE (`is`).
    public func `is`(_ column: String, value: Bool?) -> Self {
        adding(column, .is, .value(value.map { $0 ? "true" : "false" } ?? "null"))
    }

    /// Rows that fail a filter (`not.<operator>.<value>`), e.g. `not("id", operator: "in",
    /// value: "(1,2)")`; the value is written as PostgREST reads it.
    public func not(_ column: String, operator op: String, value: some FilterValue) -> Self {
        filter(column, operator: "not." + op, value: value)
    }

    /// Rows matching any of `filters`, written in PostgREST's grammar
    /// (`"done.eq.true,priority.gt.3"`); with `referencedTable`, the rows of that embedded table.
    public func or(_ filters: String, referencedTable: String? = nil) -> Self {
        let value = "(" + filters + ")"
        if let referencedTable {
            return addingEmbedParameter(QueryParameter(name: referencedTable + ".or", value: value))
        }
        if let parts = FilterGrammar.logicParts(value) {
            return addingFilter(.or(parts, negated: false))
        }
        return addingFilter(.unparsed(key: "or", value: value))
    }

    /// Rows matching `column=<operator>.<value>`, both written as PostgREST reads them
    /// (`filter("id", operator: "in", value: "(1,2)")`); text the engine cannot read is sent as it
    /// is and never evaluated locally.
    public func filter(_ column: String, operator op: String, value: some FilterValue) -> Self {
        let expression = op + "." + value.rawValue
        if FilterRendering.isEmbedScoped(column) {
            return addingEmbedParameter(QueryParameter(name: column, value: expression))
        }
        return addingFilter(FilterGrammar.condition(column: column, expression: expression))
    }

    func adding(
        _ column: String, _ op: FilterOperator, _ operand: FilterOperand, negated: Bool = false
    ) -> Self {
        let condition = FilterCondition(column: column, op: op, operand: operand, negated: negated)
        if FilterRendering.isEmbedScoped(column) {
            let prefix = (negated ? "not." : "") + op.rawValue + "."
            let value: String
            switch operand {
            case .value(let text): value = prefix + text
            case .list(let elements): value = prefix + FilterRendering.list(elements)
            }
            return addingEmbedParameter(QueryParameter(name: column, value: value))
        }
        return addingFilter(.condition(condition))
    }
}
