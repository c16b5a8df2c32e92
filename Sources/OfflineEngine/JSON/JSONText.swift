import Foundation

/// Reads and writes JSON text with numbers kept exact.
///
/// Reading goes through `JSONParser`, which decodes UTF-8 straight into `JSONValue` and keeps
/// each number's text. It replaced `JSONSerialization` with a tagging pass and a conversion
/// (still there as `parseThroughFoundation` in `OfflineEngineTesting`, the benchmark's baseline and the tests' oracle)
/// because `Benchmarks json` measured it 5 to 8 times as fast, on a 1,000-row page and on one queued
/// write. Writing is a byte loop with object keys sorted.
package enum JSONText {
    /// The text could not be read as JSON; the message names no content.
    package struct MalformedJSON: Error, Sendable, CustomStringConvertible {
        /// What was wrong, without any of the text.
        package let reason: String
        package var description: String { "Malformed JSON: \(reason)" }

        package init(reason: String) {
            self.reason = reason
        }
    }

    /// Parses JSON text into a value, keeping numbers exact.
    package static func parse(_ data: Data) throws -> JSONValue {
        try JSONParser.parse(data)
    }

    /// Parses JSON text given as a string.
    package static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    /// Writes a value as compact JSON text; object keys are sorted so equal values give equal text.
    package static func data(_ value: JSONValue) -> Data {
        Data(bytes(value))
    }

    /// Writes a value as compact JSON text with sorted object keys.
    package static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of the compact JSON text (written as bytes: appending to a `String` scalar by
    /// scalar costs ~20x more).
    private static func bytes(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, to: &output)
        return output
    }

    /// Appends the compact text of `value`, object keys sorted.
    package static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            let text: StaticString = "null"
            text.withUTF8Buffer { output.append(contentsOf: $0) }
        case .bool(let flag):
            let text: StaticString = flag ? "true" : "false"
            text.withUTF8Buffer { output.append(contentsOf: $0) }
        case .number(let number):
            appendUTF8(number.text, to: &output)
        case .string(let text):
            writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Whether any byte must be escaped in a JSON string (a control character, a quote or a
    /// backslash): sixteen bytes at a time, as every string of every queued write is scanned.
    private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let (space, quote, backslash) = (
            SIMD16<UInt8>(repeating: 0x20), SIMD16<UInt8>(repeating: UInt8(ascii: "\"")),
            SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        )
        var index = 0
        while index + 16 <= bytes.count {
            let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            if any((chunk .< space) .| (chunk .== quote) .| (chunk .== backslash)) { return true }
            index += 16
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    /// Appends the UTF-8 bytes of `text` as they are, copied in one go when the string holds
    /// them contiguously (as native strings do).
    package static func appendUTF8(_ text: String, to output: inout [UInt8]) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { output.append(contentsOf: $0) }
        if copied == nil { output.append(contentsOf: text.utf8) }
    }

    /// Appends `text` as a JSON string, escaped.
    package static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // A string with nothing to escape (nearly all) is copied in one go from its own bytes.
        let plain =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                guard !needsEscaping(bytes) else { return false }
                output.append(contentsOf: bytes)
                return true
            } ?? false
        if plain {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Encodes any `Encodable` value (a row struct, say) into a JSON value, keeping numbers
    /// exact; `encoder` is the client's (``Configuration/encoder``), by default one that writes
    /// dates as ISO 8601 in UTC with milliseconds.
    package init<T: Encodable>(encoding value: T, with encoder: JSONEncoder = JSONCoders.encoder()) throws {
        self = try JSONText.parse(try encoder.encode(value))
    }

    /// Decodes this value into a `Decodable` type with `decoder` (the client's, by default one
    /// that reads the dates PostgREST writes).
    package func decode<T: Decodable>(_ type: T.Type, with decoder: JSONDecoder = JSONCoders.decoder()) throws
        -> T
    {
        try decoder.decode(type, from: JSONText.data(self))
    }
}

/// ISO 8601 timestamps as PostgREST writes them (with or without fractions and offset).
enum ISO8601Timestamp {
    static func date(from text: String) -> Date? {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let plain = Date.ISO8601FormatStyle()
        if let date = try? withFraction.parse(text) { return date }
        if let date = try? plain.parse(text) { return date }
        // PostgREST writes timestamps without an offset for `timestamp` columns, and with
        // microseconds: read those as UTC.
        if let date = try? withFraction.parse(text + "Z") { return date }
        return try? plain.parse(text + "Z")
    }

    /// Milliseconds in UTC, as supabase-swift writes dates in filters, rounded to the nearest millisecond
    /// (`1700000000.123` is stored as `1700000000.12299…`: truncating would send `.122`).
    static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1_000)
        let seconds = remainder < 0 ? quotient - 1 : quotient
        let fraction = remainder < 0 ? remainder + 1_000 : remainder
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
