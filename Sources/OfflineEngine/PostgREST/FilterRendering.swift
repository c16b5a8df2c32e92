import Foundation

/// Writes ``Filter`` trees as PostgREST query parameters, quoting exactly what PostgREST's parser
/// needs quoted so ``FilterGrammar`` (and PostgREST) read back the same values. Pure.
enum FilterRendering {
    /// Characters that make an `in` element or a logic-tree value need double quotes.
    static let quoteTriggers: Set<Unicode.Scalar> = [",", "(", ")", "\"", "\\", ":", "{", "}"]

    /// Keys PostgREST reads as its own parameters, never as a column filter.
    static let reservedKeys: Set<String> = [
        "select", "columns", "on_conflict", "order", "limit", "offset", "and", "or",
    ]

    /// Whether an element must be double-quoted: empty, edged by whitespace, or holding one of
    /// ``quoteTriggers``.
    static func needsQuotes(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return true }
        if first.properties.isWhitespace || last.properties.isWhitespace { return true }
        if isParserSpace(first) || isParserSpace(last) { return true }
        return scalars.contains { quoteTriggers.contains($0) }
    }

    private static func isParserSpace(_ scalar: Unicode.Scalar) -> Bool {
        FilterGrammar.isParserSpace(scalar)
    }

    /// `"text"` with `\` before every `"` and `\`.
    static func quoted(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.append("\\") }
            result.append(scalar)
        }
        result.append("\"")
        return String(result)
    }

    /// An `in` element or logic-tree value, quoted only when it must be.
    static func element(_ text: String) -> String {
        needsQuotes(text) ? quoted(text) : text
    }

    /// An `in` list: `(a,"b,c")`; the empty list is `()`.
    static func list(_ elements: [String]) -> String {
        "(" + elements.map(element).joined(separator: ",") + ")"
    }

    /// The query parameter for a top-level filter.
    static func parameter(for filter: Filter) throws -> QueryParameter {
        switch filter {
        case .condition(let condition):
            try validate(column: condition.column, inTree: false)
            return QueryParameter(name: condition.column, value: try expression(condition, inTree: false))
        case .and(let parts, let negated):
            return QueryParameter(name: negated ? "not.and" : "and", value: try logicList(parts))
        case .or(let parts, let negated):
            return QueryParameter(name: negated ? "not.or" : "or", value: try logicList(parts))
        case .unparsed(let key, let value):
            try validate(text: key)
            try validate(text: value)
            guard !key.isEmpty else { throw QueryError(.invalidColumnName) }
            return QueryParameter(name: key, value: value)
        }
    }

    /// `(part,part,...)` for an `and`/`or` value.
    static func logicList(_ parts: [Filter]) throws -> String {
        guard !parts.isEmpty else { throw QueryError(.unencodableFilter) }
        return "(" + (try parts.map(treeItem).joined(separator: ",")) + ")"
    }

    /// One element of a logic tree.
    static func treeItem(_ filter: Filter) throws -> String {
        switch filter {
        case .condition(let condition):
            try validate(column: condition.column, inTree: true)
            return condition.column + "." + (try expression(condition, inTree: true))
        case .and(let parts, let negated):
            return (negated ? "not.and" : "and") + (try logicList(parts))
        case .or(let parts, let negated):
            return (negated ? "not.or" : "or") + (try logicList(parts))
        case .unparsed:
            throw QueryError(.unencodableFilter)
        }
    }

    /// `[not.]op.operand`.
    static func expression(_ condition: FilterCondition, inTree: Bool) throws -> String {
        let op = condition.op.rawValue
        guard !op.isEmpty, !op.contains("."),
            !op.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw QueryError(.unencodableFilter) }
        if inTree && (op.contains(",") || op.contains(")")) { throw QueryError(.unencodableFilter) }
        let prefix = (condition.negated ? "not." : "") + op + "."
        switch condition.operand {
        case .list(let elements):
            for element in elements { try validate(text: element) }
            return prefix + list(elements)
        case .value(let value):
            try validate(text: value)
            guard inTree else { return prefix + value }
            if condition.op == .is {
                guard FilterGrammar.truthWords.contains(value.lowercased()) else {
                    throw QueryError(.unencodableFilter)
                }
                return prefix + value
            }
            return prefix + element(value)
        }
    }

    /// Rejects text PostgreSQL cannot hold (a NUL).
    static func validate(text: String) throws {
        if text.unicodeScalars.contains("\u{0}") { throw QueryError(.nulCharacter) }
    }

    /// Rejects a column name that is empty, holds control characters, is reserved, or (inside a
    /// logic tree) holds `.`, `,`, `(` or `)` outside double quotes.
    static func validate(column: String, inTree: Bool) throws {
        guard !column.trimmingCharacters(in: .whitespaces).isEmpty,
            !column.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw QueryError(.invalidColumnName) }
        if reservedKeys.contains(column) { throw QueryError(.reservedColumnName) }
        if inTree {
            var quoted = false
            for scalar in column.unicodeScalars {
                if scalar == "\"" { quoted.toggle() }
                if !quoted && (scalar == "." || scalar == "," || scalar == "(" || scalar == ")") {
                    throw QueryError(.invalidColumnName)
                }
            }
            if quoted { throw QueryError(.invalidColumnName) }
        }
    }

    /// Whether a column name holds a `.` outside double quotes, which makes it a filter on an
    /// embedded table (`actors.first_name`).
    static func isEmbedScoped(_ column: String) -> Bool {
        var quoted = false
        for scalar in column.unicodeScalars {
            if scalar == "\"" { quoted.toggle() }
            if !quoted && scalar == "." { return true }
        }
        return false
    }
}
