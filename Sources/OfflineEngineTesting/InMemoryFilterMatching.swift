import Foundation
import OfflineEngine

/// How ``InMemoryPostgREST`` decides a filter on a stored row: SQL's three-valued logic
/// (`nil` is NULL), with values compared by their JSON type since the stand-in has no column
/// types. Unlike the engine's evaluator it always decides: it is playing the server.
enum InMemoryFilterMatching {
    /// A filter the stand-in cannot run; the server answers 400 as PostgREST does.
    struct Unsupported: Error {}

    static func truth(of filter: Filter, on row: Row) throws -> Bool? {
        switch filter {
        case .condition(let condition):
            let answer = try truth(of: condition, on: row)
            return condition.negated ? answer.map(!) : answer
        case .and(let parts, let negated):
            let result = try junction(parts, on: row, decidedBy: false)
            return negated ? result.map(!) : result
        case .or(let parts, let negated):
            let result = try junction(parts, on: row, decidedBy: true)
            return negated ? result.map(!) : result
        case .unparsed:
            throw Unsupported()
        }
    }

    /// An AND (`decisive` false) or OR (`decisive` true) of `parts`: the first part that answers
    /// `decisive` decides it, else a NULL part makes it NULL.
    private static func junction(_ parts: [Filter], on row: Row, decidedBy decisive: Bool) throws -> Bool? {
        var result: Bool? = !decisive
        for part in parts {
            let answer = try truth(of: part, on: row)
            if answer == decisive { return decisive }
            if answer == nil { result = nil }
        }
        return result
    }

    private static func truth(of condition: FilterCondition, on row: Row) throws -> Bool? {
        let value = row[condition.column] ?? .null
        switch (condition.op.rawValue, condition.operand) {
        case ("is", .value(let word)):
            switch word.lowercased() {
            case "null": return value.isNull
            case "not_null": return !value.isNull
            case "true": return value.boolValue == true
            case "false": return value.boolValue == false
            case "unknown": return value.isNull
            default: throw Unsupported()
            }
        case ("in", .list(let items)):
            // `= ANY('{}')` is false even for NULL: `not.in.()` keeps every row.
            if items.isEmpty { return false }
            if value.isNull { return nil }
            return items.contains { compare(value, $0) == .orderedSame }
        case (let name, .value(let text)):
            if value.isNull { return nil }
            switch name {
            case "eq": return compare(value, text) == .orderedSame
            case "neq": return compare(value, text) != .orderedSame
            case "gt": return compare(value, text) == .orderedDescending
            case "gte": return compare(value, text) != .orderedAscending
            case "lt": return compare(value, text) == .orderedAscending
            case "lte": return compare(value, text) != .orderedDescending
            case "like": return like(value.rawValue, pattern: text, caseInsensitive: false)
            case "ilike": return like(value.rawValue, pattern: text, caseInsensitive: true)
            default: throw Unsupported()
            }
        default:
            throw Unsupported()
        }
    }

    /// Compares a stored value with filter text the way a typed column would.
    static func compare(_ value: JSONValue, _ text: String) -> ComparisonResult {
        switch value {
        case .number(let number):
            if let left = number.decimalValue, let right = Decimal(string: text) {
                return left == right ? .orderedSame : left < right ? .orderedAscending : .orderedDescending
            }
        case .bool(let flag):
            if let other = postgresBoolean(text) {
                return flag == other ? .orderedSame : (flag ? .orderedDescending : .orderedAscending)
            }
        case .string(let string):
            if let left = UUID(uuidString: string), let right = UUID(uuidString: text) {
                return left.uuidString.compare(right.uuidString)
            }
            return string == text ? .orderedSame : string < text ? .orderedAscending : .orderedDescending
        default:
            break
        }
        let rendered = value.rawValue
        return rendered == text ? .orderedSame : rendered < text ? .orderedAscending : .orderedDescending
    }

    /// The boolean PostgreSQL reads `text` as (`t`, `yes`, `on`, `1`, any case, and the prefixes
    /// of `true`, `false`, `yes` and `no`), or `nil` when it reads none.
    private static func postgresBoolean(_ text: String) -> Bool? {
        let word = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty else { return nil }
        switch word {
        case "1", "on": return true
        case "0", "of", "off": return false
        default: break
        }
        if "true".hasPrefix(word) || "yes".hasPrefix(word) { return true }
        if "false".hasPrefix(word) || "no".hasPrefix(word) { return false }
        return nil
    }

    private static func like(_ text: String, pattern: String, caseInsensitive: Bool) -> Bool {
        var expression = "^"
        for character in pattern {
            switch character {
            case "*", "%": expression += ".*"
            case "_": expression += "."
            default: expression += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        expression += "$"
        let options: String.CompareOptions =
            caseInsensitive ? [.regularExpression, .caseInsensitive] : .regularExpression
        return text.range(of: expression, options: options) != nil
    }
}

/// Sorting rows by `order` terms as Postgres does (NULLS LAST ascending, FIRST descending, by
/// default).
enum InMemoryOrdering {
    static func precedes(_ left: Row, _ right: Row, by terms: [OrderTerm]) -> Bool {
        for term in terms {
            let a = left[term.column] ?? .null
            let b = right[term.column] ?? .null
            let nullsFirst = term.nullsFirst ?? !term.ascending
            switch (a.isNull, b.isNull) {
            case (true, true): continue
            case (true, false): return nullsFirst
            case (false, true): return !nullsFirst
            case (false, false):
                let order = InMemoryFilterMatching.compare(a, b.rawValue)
                if order == .orderedSame { continue }
                return (order == .orderedAscending) == term.ascending
            }
        }
        return false
    }
}
