import Foundation

/// A JSON number kept as the exact text the server sent, so `9007199254740993` (a bigint) and
/// `1.50` (a numeric) round-trip with every digit.
///
/// Converting through `Double` would lose both; the text is the truth, and the numeric views
/// below are computed on demand.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text, exactly as received or written.
    public let text: String

    /// Wraps JSON number text, or returns `nil` when `text` is not a valid JSON number.
    public init?(text: String) {
        guard JSONNumber.isValid(text) else { return nil }
        self.text = text
    }

    /// A number from an integer.
    public init(_ value: Int) { text = String(value) }

    /// A number from a 64-bit integer.
    public init(_ value: Int64) { text = String(value) }

    /// A number from a double; non-finite values have no JSON form and become `0`.
    public init(_ value: Double) {
        guard value.isFinite else {
            text = "0"
            return
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            text = "\(value)"
        }
    }

    /// A number from a decimal, written with its own digits.
    public init(_ value: Decimal) { text = value.description }

    init(unchecked text: String) { self.text = text }

    public var description: String { text }

    /// The value as a `Double`, which may round.
    public var doubleValue: Double? { Double(text) }

    /// The value as an `Int`, when the text is an integer that fits.
    public var intValue: Int? { Int(text) }

    /// The value as a `Decimal`, when it fits one.
    public var decimalValue: Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }

    /// Whether the text is an integer literal (no fraction, no exponent).
    public var isInteger: Bool { !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) }

    /// Checks the JSON number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isValid(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39 {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
