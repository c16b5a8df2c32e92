import Foundation

/// A value that can stand in a PostgREST filter, written as the text PostgREST reads.
///
/// Mirrors supabase-swift's `PostgrestFilterValue`, except that an optional is not one: `nil`
/// passed to `eq` would send `eq.null`, which PostgreSQL compares with the text `'null'` (a wrong
/// row on a text column, a 400 on others). Rows whose column is null are `is(_:value: nil)`.
///
/// ```swift
/// let email: String? = nil
/// let read = email.map { client.from("users").select().eq("email", value: $0) }
///     ?? client.from("users").select().is("email", value: nil)
/// ```
public protocol FilterValue: Sendable {
    /// The text PostgREST compares with the column, before URL encoding.
    var rawValue: String { get }
}

extension String: FilterValue {
    /// The string itself.
    public var rawValue: String { self }
}

extension Substring: FilterValue {
    /// The substring as a string.
    public var rawValue: String { String(self) }
}

extension Int: FilterValue {
    /// The integer in decimal.
    public var rawValue: String { String(self) }
}

extension Int64: FilterValue {
    /// The integer in decimal.
    public var rawValue: String { String(self) }
}

extension Double: FilterValue {
    /// The double as Swift prints it.
    public var rawValue: String { description }
}

extension Decimal: FilterValue {
    /// The decimal with its own digits.
    public var rawValue: String { description }
}

extension Bool: FilterValue {
    /// `true` or `false`.
    public var rawValue: String { self ? "true" : "false" }
}

extension UUID: FilterValue {
    /// The UUID in lower case, as Postgres writes it.
    public var rawValue: String { lowercasedText }
}

extension Date: FilterValue {
    /// ISO 8601 with milliseconds in UTC, as supabase-swift writes dates.
    public var rawValue: String { ISO8601Timestamp.string(from: self) }
}

extension JSONValue: FilterValue {
    /// Strings as they are, numbers with their digits, `null` as `null`, the rest as JSON. Passed
    /// to `eq` or `neq`, ``JSONValue/null`` filters on SQL NULL (`is.null`, `not.is.null`), as a
    /// JSON value's null means: `eq.null` would compare with the text `'null'`.
    public var rawValue: String {
        switch self {
        case .string(let text): return text
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array, .object: return JSONText.string(self)
        }
    }
}

extension Array: FilterValue where Element: FilterValue {
    /// A PostgreSQL array literal, `{a,b}`, for `contains`, `containedBy`, `overlaps` and the
    /// `likeAllOf` family: an element that is empty, is `NULL` in any case, has edge spaces or
    /// holds `, { } " \` is double-quoted with `\` and `"` escaped, so a pattern with a comma
    /// stays one element. A nested array stays a nested literal; ``JSONValue/null`` is SQL NULL.
    public var rawValue: String {
        "{" + map(ArrayLiteral.element).joined(separator: ",") + "}"
    }
}

/// How one element is written inside a PostgreSQL array literal.
enum ArrayLiteral {
    static func element(_ value: some FilterValue) -> String {
        if value is any ArrayLiteralNested { return value.rawValue }
        if let json = value as? JSONValue {
            switch json {
            case .null: return "NULL"
            case .array: return json.rawValue
            default: break
            }
        }
        return quoted(value.rawValue)
    }

    static func quoted(_ raw: String) -> String {
        let reserved: Set<Character> = [",", "{", "}", "\"", "\\"]
        let needsQuotes =
            raw.isEmpty || raw.caseInsensitiveCompare("NULL") == .orderedSame
            || raw.contains(where: reserved.contains) || raw != raw.trimmingCharacters(in: .whitespaces)
        guard needsQuotes else { return raw }
        let escaped = raw.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\"")
        return "\"" + escaped + "\""
    }
}

/// An array inside an array literal: written as a nested literal, not quoted as a string.
protocol ArrayLiteralNested {}

extension Array: ArrayLiteralNested where Element: FilterValue {}
