import Foundation
import OfflineEngine

/// A request's parts as SQL text with numbered parameters. Every filter value is bound as an
/// untyped parameter (`"col" = $1`), as PostgREST binds it, so PostgreSQL applies its own type
/// rules to it; identifiers are double-quoted.
package struct GatewaySQL {
    /// The parameters bound so far, in order (`nil`: SQL NULL).
    package private(set) var parameters: [String?] = []

    /// The alias a statement gives its table (`_r`), written before every column a filter
    /// names, so a computed column (a function of the row, `always_true(items)`) reads as
    /// PostgreSQL's attribute notation (`_r."always_true"`), as on PostgREST. `nil`: bare names.
    package var qualifier: String?

    /// The aliases of the embeds at the level being written, by key: `key=is.null` tests
    /// whether the embed found a row, as on PostgREST (`clients=not.is.null`).
    var embedAliases: [String: String] = [:]

    /// No parameters bound yet; columns named bare, or after `qualifier`.
    package init(qualifier: String? = nil) {
        self.qualifier = qualifier
    }

    /// What the gateway does not translate: answered with a clear 400, never guessed at.
    package struct Unsupported: Error {
        package let what: String
    }

    /// Binds `value` as the next parameter; returns its placeholder.
    mutating func bind(_ value: String?) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    /// `name` as a quoted identifier.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A plain column name (no JSON path, cast or embedded table), quoted.
    static func column(_ name: String) throws(Unsupported) -> String {
        guard !name.isEmpty, !name.contains("->"), !name.contains("::"), !name.contains("("),
            !name.contains(".")
        else { throw Unsupported(what: "a column that is not a plain name") }
        return identifier(name)
    }

    /// `name` as a column of the row `qualifier` names (bare without one).
    static func reference(_ name: String, qualifier: String?) throws(Unsupported) -> String {
        (qualifier.map { $0 + "." } ?? "") + (try column(name))
    }

    /// `"schema"."table"`.
    static func table(_ table: String, schema: String?) -> String {
        identifier(schema ?? "public") + "." + identifier(table)
    }

    /// The select list: `*`, or columns with their renames (`alias:column`) and casts
    /// (`column::type`, the key staying the column's name or alias).
    static func selectList(_ select: String, qualifier: String? = nil) throws(Unsupported) -> String {
        let star = qualifier.map { $0 + ".*" } ?? "*"
        guard select != "*" else { return star }
        var items: [String] = []
        for item in select.split(separator: ",").map(String.init) {
            if item == "*" {
                items.append(star)
                continue
            }
            var field = item
            var cast: String?
            if let separator = field.range(of: "::") {
                cast = String(field[separator.upperBound...])
                field = String(field[..<separator.lowerBound])
            }
            let parts = field.split(separator: ":", maxSplits: 1).map(String.init)
            let name = parts.count == 2 ? parts[1] : field
            var expression = try reference(name, qualifier: qualifier)
            if let cast {
                guard !cast.isEmpty,
                    cast.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
                else { throw Unsupported(what: "a cast to a type that is not a plain name") }
                expression = "CAST(\(expression) AS \(cast))"
            }
            let key = parts.count == 2 ? parts[0] : name
            items.append(
                parts.count == 2 || cast != nil || qualifier != nil
                    ? "\(expression) AS \(identifier(key))" : expression)
        }
        return items.joined(separator: ", ")
    }

    /// The WHERE clause of `filters` (`TRUE` with none).
    package mutating func whereClause(_ filters: [Filter]) throws(Unsupported) -> String {
        guard !filters.isEmpty else { return "TRUE" }
        var parts: [String] = []
        for filter in filters { parts.append(try sql(filter)) }
        return parts.joined(separator: " AND ")
    }

    /// The ORDER BY clause, or an empty string.
    static func orderClause(_ order: [OrderTerm], qualifier: String? = nil) throws(Unsupported) -> String {
        guard !order.isEmpty else { return "" }
        var terms: [String] = []
        for term in order {
            var text = try reference(term.column, qualifier: qualifier) + (term.ascending ? " ASC" : " DESC")
            if let nullsFirst = term.nullsFirst { text += nullsFirst ? " NULLS FIRST" : " NULLS LAST" }
            terms.append(text)
        }
        return " ORDER BY " + terms.joined(separator: ", ")
    }

    private mutating func sql(_ filter: Filter) throws(Unsupported) -> String {
        switch filter {
        case .condition(let condition):
            let inner = try sql(condition)
            return condition.negated ? "NOT (\(inner))" : "(\(inner))"
        case .and(let parts, let negated), .or(let parts, let negated):
            var inner: [String] = []
            for part in parts { inner.append(try sql(part)) }
            let joiner: String
            if case .and = filter { joiner = " AND " } else { joiner = " OR " }
            let text = "(" + inner.joined(separator: joiner) + ")"
            return negated ? "NOT \(text)" : text
        case .unparsed:
            throw Unsupported(what: "a filter it cannot read")
        }
    }

    private mutating func sql(_ condition: FilterCondition) throws(Unsupported) -> String {
        if condition.op == .is, case .value(let word) = condition.operand, word.lowercased() == "null",
            let embed = embedAliases[condition.column]
        {
            return "\(embed) IS NOT DISTINCT FROM NULL"
        }
        let column = try Self.reference(condition.column, qualifier: qualifier)
        switch (condition.op, condition.operand) {
        case (.in, .list(let items)):
            return "\(column) = ANY(\(bind(Self.arrayLiteral(items))))"
        case (.is, .value(let word)):
            switch word.lowercased() {
            case "null": return "\(column) IS NULL"
            case "not_null": return "\(column) IS NOT NULL"
            case "true": return "\(column) IS TRUE"
            case "false": return "\(column) IS FALSE"
            case "unknown": return "\(column) IS UNKNOWN"
            default: throw Unsupported(what: "an is filter other than null, not_null, true, false, unknown")
            }
        case (.like, .value(let pattern)), (.ilike, .value(let pattern)):
            let keyword = condition.op == .like ? "LIKE" : "ILIKE"
            return "\(column) \(keyword) \(bind(pattern.replacingOccurrences(of: "*", with: "%")))"
        case (let op, .value(let value)):
            guard let symbol = Self.operators[op] else { throw Unsupported(what: "the \(op) operator") }
            return "\(column) \(symbol) \(bind(value))"
        default:
            throw Unsupported(what: "the \(condition.op) operator with a list")
        }
    }

    private static let operators: [FilterOperator: String] = [
        .eq: "=", .neq: "<>", .gt: ">", .gte: ">=", .lt: "<", .lte: "<=", .match: "~", .imatch: "~*",
        .isDistinct: "IS DISTINCT FROM", .cs: "@>", .cd: "<@", .ov: "&&",
    ]

    /// PostgREST's `pgBuildArrayLiteral`: every element double-quoted, `\` and `"` escaped.
    static func arrayLiteral(_ items: [String]) -> String {
        "{" + items.map(arrayElement).joined(separator: ",") + "}"
    }

    /// One element of an array literal: double-quoted, `\` and `"` escaped.
    static func arrayElement(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
