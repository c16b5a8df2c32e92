/// How Postgres's input functions read a filter's text, for the types whose reading decides an
/// equality the engine can answer: `uuid` and the numeric types. Pure byte-level parsing.
enum PostgresInput {
    /// The 32 lowercase hex digits of a `uuid` as `uuid_in` reads it (any case, optional braces,
    /// a hyphen allowed after any group of four digits), or `nil` when `uuid_in` rejects it.
    static func uuidDigits(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        var index = 0
        let braces = bytes.first == UInt8(ascii: "{")
        if braces { index = 1 }
        var digits = [UInt8]()
        digits.reserveCapacity(32)
        for pair in 0..<16 {
            for _ in 0..<2 {
                guard index < bytes.count, let digit = lowerHex(bytes[index]) else { return nil }
                digits.append(digit)
                index += 1
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-"), pair % 2 == 1, pair < 15 {
                index += 1
            }
        }
        if braces {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else { return nil }
            index += 1
        }
        return index == bytes.count ? digits : nil
    }

    /// Whether `text` is a `uuid` exactly as Postgres writes one: lowercase, 8-4-4-4-12.
    static func isCanonicalUUID(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            switch count {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) else {
                    return false
                }
            }
            count += 1
        }
        return count == 36
    }

    /// A decimal number as `numeric_in`, `int8in` and `float8in` all read it: surrounding
    /// whitespace, a sign, digits with an optional point, an optional exponent. `nil` for anything
    /// else (including `NaN`, `Infinity`, `0x1F` and `1_000`).
    static func decimal(_ text: String) -> ExactDecimal? {
        var bytes = ArraySlice(text.utf8)
        while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        var digits = [UInt8]()
        var pointShift = 0
        var sawPoint = false
        var sawDigit = false
        while let byte = bytes.first {
            if isDigit(byte) {
                sawDigit = true
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if sawPoint { pointShift -= 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            bytes.removeFirst()
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes.removeFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes.removeFirst()
            }
            var exponentDigits = 0
            while let byte = bytes.first, isDigit(byte) {
                guard exponent < 100_000_000 else { return nil }
                exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                exponentDigits += 1
                bytes.removeFirst()
            }
            guard exponentDigits > 0 else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        // Leading zeros are gone (digits before the point shift the leading-zero count into the
        // scale); trailing zeros carry no value.
        var scale = exponent + pointShift
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            scale += 1
        }
        if digits.isEmpty { return ExactDecimal(negative: false, digits: [], scale: 0) }
        return ExactDecimal(negative: negative, digits: digits, scale: scale)
    }

    /// A number written exactly: significant digits without leading or trailing zeros, and the
    /// power of ten of the last one. Two texts are equal as numbers exactly when these are.
    struct ExactDecimal: Equatable {
        /// Whether the number is below zero (never for zero).
        var negative: Bool
        /// ASCII significant digits.
        var digits: [UInt8]
        /// The value is `digits × 10^scale`.
        var scale: Int

        /// The number as text Swift's floating-point parsers read exactly as `strtod` does.
        var scientificText: String {
            guard !digits.isEmpty else { return "0" }
            return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e\(scale)"
        }
    }

    /// `isspace` in the C locale, which the numeric input functions skip.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func lowerHex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): return byte
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte + 0x20
        default: return nil
        }
    }
}
