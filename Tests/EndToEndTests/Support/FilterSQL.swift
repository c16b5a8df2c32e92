@testable import OfflineEngine

/// A filter tree as the SQL PostgREST runs for it, with every value bound as an untyped
/// parameter (`"col" = $1`, `"col" = ANY($2)` with a quoted array literal, `IS NULL`, ...).
struct FilterSQL {
    /// The WHERE clause.
    private(set) var clause = ""
    /// The parameters, in order.
    private(set) var parameters = [String]()

    /// The SQL for `filter`.
    init(_ filter: Filter) {
        clause = sql(filter)
    }

    private mutating func bind(_ value: String) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    private mutating func sql(_ filter: Filter) -> String {
        switch filter {
        case .condition(let condition):
            let inner = sql(condition)
            return condition.negated ? "NOT (\(inner))" : "(\(inner))"
        case .and(let parts, let negated):
            let inner = parts.map { sql($0) }.joined(separator: " AND ")
            return negated ? "NOT (\(inner))" : "(\(inner))"
        case .or(let parts, let negated):
            let inner = parts.map { sql($0) }.joined(separator: " OR ")
            return negated ? "NOT (\(inner))" : "(\(inner))"
        case .unparsed:
            return "TRUE"
        }
    }

    private mutating func sql(_ condition: FilterCondition) -> String {
        let column = "\"\(condition.column)\""
        switch (condition.op, condition.operand) {
        case (.eq, .value(let value)): return "\(column) = \(bind(value))"
        case (.neq, .value(let value)): return "\(column) <> \(bind(value))"
        case (.gt, .value(let value)): return "\(column) > \(bind(value))"
        case (.in, .list(let items)): return "\(column) = ANY(\(bind(FilterSQL.arrayLiteral(items))))"
        case (.is, .value(let word)):
            switch word.lowercased() {
            case "null": return "\(column) IS NULL"
            case "not_null": return "\(column) IS NOT NULL"
            case "true": return "\(column) IS TRUE"
            case "false": return "\(column) IS FALSE"
            default: return "\(column) IS UNKNOWN"
            }
        default:
            fatalError("the generator makes no \(condition.op) with this operand")
        }
    }

    /// PostgREST's `pgBuildArrayLiteral`: every element double-quoted, `\` and `"` escaped.
    static func arrayLiteral(_ items: [String]) -> String {
        let quoted = items.map { item in
            "\""
                + item.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"")
                + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}
