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
    /// Strings as they are, numbers with their digits, `null` as `null`, the rest as JSON.
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
