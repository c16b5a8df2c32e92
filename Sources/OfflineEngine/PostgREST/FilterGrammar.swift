import Foundation

/// Reads PostgREST's filter grammar into the structured ``Filter`` tree, the way PostgREST's
/// own parser (`QueryParams.hs`) reads it: top-level values verbatim, `in.(...)` lists with
/// quoted or raw elements, and `or`/`and` logic trees whose values end at `,` or `)` unless
/// double-quoted (with `\` escapes) or a `{...}` array literal. Pure; text it cannot read gives
/// `nil`, and callers keep such text as ``Filter/unparsed(key:value:)``.
enum FilterGrammar {
    /// The operators the parser recognises (before any `(any)`/`(all)`/`(config)` modifier).
    static let knownOperators: Set<String> = [
        "eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch", "in", "is",
        "isdistinct", "fts", "plfts", "phfts", "wfts", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl",
        "adj",
    ]

    /// The words an `is` filter takes inside a logic tree (any case).
    static let truthWords: Set<String> = ["null", "not_null", "true", "false", "unknown"]

    // MARK: Entry points

    /// A top-level filter `column=[not.]op.value` (the value verbatim; `in` lists parsed).
    static func condition(column: String, expression: String) -> Filter {
        var cursor = Cursor(expression)
        if let condition = cursor.operatorExpression(column: column, topLevel: true), cursor.isAtEnd {
            return .condition(condition)
        }
        return .unparsed(key: column, value: expression)
    }

    /// The parts of an `or`/`and` parameter value such as `(a.eq.1,b.in.(x,y))`, or `nil`.
    static func logicParts(_ text: String) -> [Filter]? {
        var cursor = Cursor(text)
        guard let parts = cursor.logicList() else { return nil }
        cursor.skipSpaces()
        return cursor.isAtEnd ? parts : nil
    }

    /// The elements of an `in` list such as `(1,"a,b")`, or `nil`.
    static func list(_ text: String) -> [String]? {
        var cursor = Cursor(text)
        guard let elements = cursor.listValue(), cursor.isAtEnd else { return nil }
        return elements
    }

    /// Whether a scalar is a space to PostgREST's parser (Haskell's `isSpace`).
    static func isParserSpace(_ scalar: Unicode.Scalar) -> Bool {
        (0x09...0x0D).contains(scalar.value) || scalar.properties.generalCategory == .spaceSeparator
    }

    // MARK: Cursor

    /// A position in the text, read one Unicode scalar at a time as PostgREST reads code points.
    struct Cursor {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        var isAtEnd: Bool { index >= scalars.count }
        var current: Unicode.Scalar? { isAtEnd ? nil : scalars[index] }

        mutating func skipSpaces() {
            while let scalar = current, FilterGrammar.isParserSpace(scalar) { index += 1 }
        }

        mutating func take(_ literal: String) -> Bool {
            let wanted = Array(literal.unicodeScalars)
            guard index + wanted.count <= scalars.count,
                Array(scalars[index..<(index + wanted.count)]) == wanted
            else { return false }
            index += wanted.count
            return true
        }

        func peek(_ literal: String) -> Bool {
            var copy = self
            return copy.take(literal)
        }

        /// `"..."` with `\` escaping any scalar; the cursor must be on the opening quote.
        mutating func quoted() -> String? {
            guard current == "\"" else { return nil }
            var probe = self
            probe.index += 1
            var text = String.UnicodeScalarView()
            while let scalar = probe.current {
                probe.index += 1
                switch scalar {
                case "\"":
                    self = probe
                    return String(text)
                case "\\":
                    guard let escaped = probe.current else { return nil }
                    probe.index += 1
                    text.append(escaped)
                default:
                    text.append(scalar)
                }
            }
            return nil
        }

        /// Scalars up to (not including) any of `stops` or the end.
        mutating func raw(until stops: Set<Unicode.Scalar>) -> String {
            var text = String.UnicodeScalarView()
            while let scalar = current, !stops.contains(scalar) {
                text.append(scalar)
                index += 1
            }
            return String(text)
        }

        var nextIsValueEnd: Bool { current == nil || current == "," || current == ")" }

        /// One `in` list element: quoted when followed by `,`/`)`, else raw up to `,`/`)`.
        mutating func listElement() -> (text: String, wasQuoted: Bool) {
            var probe = self
            if let text = probe.quoted(), probe.nextIsValueEnd {
                self = probe
                return (text, true)
            }
            return (raw(until: [",", ")"]), false)
        }

        /// `(` spaces, elements separated by `,`, `)` spaces. A lone empty raw element is the
        /// empty list.
        mutating func listValue() -> [String]? {
            var probe = self
            guard probe.take("(") else { return nil }
            probe.skipSpaces()
            var elements: [(text: String, wasQuoted: Bool)] = [probe.listElement()]
            while probe.take(",") { elements.append(probe.listElement()) }
            guard probe.take(")") else { return nil }
            probe.skipSpaces()
            self = probe
            if elements.count == 1, elements[0].text.isEmpty, !elements[0].wasQuoted { return [] }
            return elements.map(\.text)
        }

        /// A single value inside a logic tree.
        mutating func logicValue() -> String {
            var probe = self
            if let text = probe.quoted(), probe.nextIsValueEnd {
                self = probe
                return text
            }
            probe = self
            if probe.take("{") {
                let body = probe.raw(until: ["{", "}"])
                if probe.take("}") {
                    self = probe
                    return "{" + body + "}"
                }
            }
            return raw(until: [",", ")"])
        }

        /// `[not.]op.value`; with `topLevel` the value is the rest of the text.
        mutating func operatorExpression(column: String, topLevel: Bool) -> FilterCondition? {
            var probe = self
            let negated = probe.take("not.")
            let start = probe.index
            var depth = 0
            while let scalar = probe.current, scalar != "." {
                if scalar == "(" { depth += 1 }
                if scalar == ")" { depth -= 1 }
                if !topLevel && (scalar == "," || depth < 0) { return nil }
                probe.index += 1
            }
            let name = String(String.UnicodeScalarView(probe.scalars[start..<probe.index]))
            guard probe.take("."), FilterGrammar.isKnown(operator: name) else { return nil }
            let op = FilterOperator(rawValue: name)
            let operand: FilterOperand
            if name == "in" {
                guard let elements = probe.listValue() else { return nil }
                operand = .list(elements)
            } else if topLevel {
                operand = .value(String(String.UnicodeScalarView(probe.scalars[probe.index...])))
                probe.index = probe.scalars.count
            } else {
                let value = probe.logicValue()
                if name == "is" && !FilterGrammar.truthWords.contains(value.lowercased()) { return nil }
                operand = .value(value)
            }
            self = probe
            return FilterCondition(column: column, op: op, operand: operand, negated: negated)
        }

        /// A field name inside a logic tree: raw text and quoted parts up to the `.` before the
        /// operator, kept as written (outer spaces trimmed).
        mutating func fieldName() -> String? {
            var probe = self
            var text = String.UnicodeScalarView()
            while let scalar = probe.current, scalar != "." {
                if scalar == "," || scalar == ")" || scalar == "(" { return nil }
                if scalar == "\"" {
                    let start = probe.index
                    guard probe.quoted() != nil else { return nil }
                    text.append(contentsOf: probe.scalars[start..<probe.index])
                } else {
                    text.append(scalar)
                    probe.index += 1
                }
            }
            let field = String(text).trimmingCharacters(in: .whitespaces)
            guard !field.isEmpty else { return nil }
            self = probe
            return field
        }

        /// One element of a logic tree: a filter, or `[not.]and(...)`/`[not.]or(...)`.
        mutating func logicElement() -> Filter? {
            var probe = self
            if let field = probe.fieldName(), probe.take("."),
                let condition = probe.operatorExpression(column: field, topLevel: false)
            {
                probe.skipSpaces()
                self = probe
                return .condition(condition)
            }
            probe = self
            let negated = probe.take("not.")
            let isAnd: Bool
            if probe.take("and") {
                isAnd = true
            } else if probe.take("or") {
                isAnd = false
            } else {
                return nil
            }
            // PostgREST allows spaces between the operator and its parenthesis (`and ( … )`).
            probe.skipSpaces()
            guard let parts = probe.logicList() else { return nil }
            self = probe
            return isAnd ? .and(parts, negated: negated) : .or(parts, negated: negated)
        }

        /// `(` elements separated by `,` `)`, spaces skipped after each delimiter.
        mutating func logicList() -> [Filter]? {
            var probe = self
            guard probe.take("(") else { return nil }
            probe.skipSpaces()
            var parts: [Filter] = []
            repeat {
                probe.skipSpaces()
                guard let part = probe.logicElement() else { return nil }
                parts.append(part)
            } while probe.take(",")
            guard probe.take(")") else { return nil }
            probe.skipSpaces()
            self = probe
            return parts
        }
    }

    /// Whether `name` is an operator the parser knows, with an optional `(...)` modifier.
    static func isKnown(operator name: String) -> Bool {
        guard let open = name.firstIndex(of: "(") else { return knownOperators.contains(name) }
        let base = String(name[..<open])
        guard name.hasSuffix(")"), knownOperators.contains(base), base != "in", base != "is" else {
            return false
        }
        let modifier = name[name.index(after: open)..<name.index(before: name.endIndex)]
        return !modifier.isEmpty && modifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
