import Foundation

/// A strict RFC 8259 parser from UTF-8 bytes straight to ``JSONValue``, numbers kept as their text.
///
/// It exists because going through `JSONSerialization` (`JSONText.parseThroughFoundation`) costs
/// a tagging pass, Foundation's objects and their conversion; `Benchmarks json` compares the two.
/// It accepts what that path accepts, except trailing commas (which Foundation on Linux lets
/// through): the same whitespace, a leading UTF-8 byte order mark, the same nesting limit, lone
/// surrogates refused and the last of duplicate keys kept. Nesting is kept on the heap, not the
/// call stack, so no input can overflow the stack of a small thread.
package struct JSONParser {
    /// Deeper nesting throws; it is `JSONSerialization`'s limit too.
    package static let depthLimit = 512

    /// An array or object not yet closed.
    private struct Open {
        var isObject: Bool
        /// An array's elements so far.
        var elements: [JSONValue] = []
        /// Where an object's members start in `pending`.
        var firstMember = 0
        /// The key of the object member being read.
        var key = ""
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The bytes of a string with escapes, reused so each such string does not allocate a buffer.
    private var scratch: [UInt8] = []
    /// The members of the open objects, innermost last: an object's dictionary is then made at its
    /// size once, instead of growing and rehashing its keys.
    private var pending: [(String, JSONValue)] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON text (any value at the top, as with `.fragmentsAllowed`).
    package static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in try parse(raw.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Parses JSON text given as a string, reading its UTF-8 in place.
    package static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0) }
    }

    /// Parses the JSON text in `bytes`, which must be UTF-8.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.document()
    }

    // MARK: Structure

    private mutating func document() throws -> JSONValue {
        // RFC 8259 lets a parser ignore a byte order mark; JSONSerialization does.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let result = try value()
        skipWhitespace()
        guard index == bytes.count else { throw failure("text follows the value") }
        return result
    }

    /// Reads the value at `index`, with everything nested in it, in one loop.
    private mutating func value() throws -> JSONValue {
        var open: [Open] = []
        while true {
            guard index < bytes.count else { throw failure("the text ends where a value should be") }
            var done: JSONValue
            switch bytes[index] {
            case Byte.openBracket, Byte.openBrace:
                let isObject = bytes[index] == Byte.openBrace
                guard open.count < JSONParser.depthLimit else {
                    throw failure("arrays and objects nest too deep")
                }
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == (isObject ? Byte.closeBrace : Byte.closeBracket) {
                    index += 1
                    done = isObject ? .object([:]) : .array([])
                } else {
                    open.append(Open(isObject: isObject, firstMember: pending.count))
                    if isObject { open[open.count - 1].key = try key() }
                    continue
                }
            default:
                done = try scalar()
            }
            // Hand the value to the innermost open container, closing each that ends here.
            while !open.isEmpty {
                // Only the flag is read: a copy of the top would make each append copy its array.
                let isObject = open[open.count - 1].isObject
                if isObject {
                    pending.append((open[open.count - 1].key, done))
                } else {
                    open[open.count - 1].elements.append(done)
                }
                skipWhitespace()
                guard index < bytes.count else { throw failure("an array or object is not closed") }
                let byte = bytes[index]
                index += 1
                if byte == Byte.comma {
                    skipWhitespace()
                    if isObject { open[open.count - 1].key = try key() }
                    break
                }
                guard byte == (isObject ? Byte.closeBrace : Byte.closeBracket) else {
                    throw failure("an array or object lacks a comma or its end")
                }
                let closed = open.removeLast()
                done = closed.isObject ? closeObject(from: closed.firstMember) : .array(closed.elements)
            }
            if open.isEmpty { return done }
        }
    }

    /// Reads an object key and its colon, up to the member's value.
    private mutating func key() throws -> String {
        guard index < bytes.count, bytes[index] == Byte.quote else {
            throw failure("an object key is not a string")
        }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == Byte.colon else {
            throw failure("an object key lacks its colon")
        }
        index += 1
        skipWhitespace()
        return key
    }

    /// The object of the members in `pending` from `first`, which it takes off.
    private mutating func closeObject(from first: Int) -> JSONValue {
        var members = [String: JSONValue](minimumCapacity: pending.count - first)
        // In order, so the last of duplicate keys wins, as with JSONSerialization.
        for (key, member) in pending[first...] { members[key] = member }
        pending.removeSubrange(first...)
        return .object(members)
    }

    /// A string, number, `true`, `false` or `null`.
    private mutating func scalar() throws -> JSONValue {
        switch bytes[index] {
        case Byte.quote: return .string(try string())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        case Byte.minus, Byte.zero...Byte.nine: return .number(try number())
        default: throw failure("an unexpected byte where a value should be")
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Reads `true`, `false` or `null`.
    private mutating func word(_ expected: StaticString) throws {
        let length = expected.utf8CodeUnitCount
        guard bytes.count - index >= length else { throw failure("an unknown word") }
        let letters = expected.utf8Start
        for offset in 0..<length where bytes[index + offset] != letters[offset] {
            throw failure("an unknown word")
        }
        index += length
    }

    // MARK: Numbers

    /// Checks `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and keeps the text.
    private mutating func number() throws -> JSONNumber {
        let start = index
        if bytes[index] == Byte.minus { index += 1 }
        guard index < bytes.count, Byte.isDigit(bytes[index]) else { throw failure("a number lacks digits") }
        if bytes[index] == Byte.zero {
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == Byte.point {
            index += 1
            guard skipDigits() else { throw failure("a number lacks digits after its point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == Byte.plus || bytes[index] == Byte.minus { index += 1 }
            guard skipDigits() else { throw failure("a number lacks digits in its exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(unchecked: text)
    }

    /// Skips a run of digits; whether there was one.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, Byte.isDigit(bytes[index]) { index += 1 }
        return index > start
    }

    // MARK: Strings

    /// Reads a string from its opening quote; one without escapes is made from its bytes directly.
    private mutating func string() throws -> String {
        index += 1
        let start = index
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                let utf8 = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let text = highBits < 0x80 ? String(decoding: utf8, as: UTF8.self) : try utf8String(utf8)
                index += 1
                return text
            }
            if byte == Byte.backslash { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw failure("a string holds a control character") }
            highBits |= byte
            index += 1
        }
        throw failure("a string is not closed")
    }

    /// The rest of a string from its first backslash, collected in `scratch`.
    private mutating func escapedString(from start: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        var run = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote || byte == Byte.backslash {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                if byte == Byte.quote {
                    index += 1
                    return try scratch.withUnsafeBufferPointer(utf8String)
                }
                try escape()
                run = index
                continue
            }
            guard byte >= 0x20 else { throw failure("a string holds a control character") }
            index += 1
        }
        throw failure("a string is not closed")
    }

    /// Appends the character of the escape at `index` (a backslash) to `scratch`.
    private mutating func escape() throws {
        index += 1
        guard index < bytes.count else { throw failure("a string is not closed") }
        let code = bytes[index]
        index += 1
        switch code {
        case Byte.quote, Byte.backslash, UInt8(ascii: "/"): scratch.append(code)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): try unicodeEscape()
        default: throw failure("a string holds an unknown escape")
        }
    }

    /// `\uXXXX`, or a surrogate pair of two; a lone surrogate throws, as with JSONSerialization.
    private mutating func unicodeEscape() throws {
        let unit = try hexQuad()
        var value = unit
        if (0xD800...0xDBFF).contains(unit) {
            guard bytes.count - index >= 2, bytes[index] == Byte.backslash,
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw failure("a string holds a lone surrogate") }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("a string holds a lone surrogate") }
            value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("a string holds a lone surrogate") }
        UTF8.encode(scalar) { scratch.append($0) }
    }

    /// Four hex digits.
    private mutating func hexQuad() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("a string holds a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case Byte.zero...Byte.nine: digit = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a string holds a \\u escape that is not hex")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The string of UTF-8 bytes that may not be valid. Decoding replaces what is invalid, so the
    /// bytes were valid when they come back unchanged (`String(validating:)` is slower, generic).
    private func utf8String(_ utf8: UnsafeBufferPointer<UInt8>) throws -> String {
        let text = String(decoding: utf8, as: UTF8.self)
        guard text.utf8.elementsEqual(utf8) else { throw failure("a string is not valid UTF-8") }
        return text
    }

    /// An error naming what was wrong and where, never the text itself.
    private func failure(_ what: String) -> JSONText.MalformedJSON {
        JSONText.MalformedJSON(reason: "\(what) (at byte \(index))")
    }
}

/// The bytes the grammar names.
private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let point = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
}
