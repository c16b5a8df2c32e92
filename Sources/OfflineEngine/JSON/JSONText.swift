import Foundation

/// Reads and writes JSON text with numbers kept exact.
///
/// Foundation's `JSONSerialization` does the parsing and validation. It would turn every number
/// into a `Double` or `Decimal` and lose digits (`1.50` becomes `1.5`), so one byte pass first
/// wraps each number token in a tagged string and tags every real string, which no input can
/// forge; the tags are read back while converting Foundation's objects.
package enum JSONText {
    /// The text could not be read as JSON; the message names no content.
    package struct MalformedJSON: Error, Sendable, CustomStringConvertible {
        /// What was wrong, without any of the text.
        package let reason: String
        package var description: String { "Malformed JSON: \(reason)" }
    }

    private static let stringTag = UInt8(ascii: "'")
    private static let numberTag = UInt8(ascii: "#")

    /// Parses JSON text into a value, keeping numbers exact.
    package static func parse(_ data: Data) throws -> JSONValue {
        let tagged = tagTokens(data)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: tagged, options: [.fragmentsAllowed])
        } catch {
            throw MalformedJSON(reason: "the text is not valid JSON")
        }
        return try value(from: object)
    }

    /// Parses JSON text given as a string.
    package static func parse(_ text: String) throws -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// The byte pass: `"abc"` becomes `"'abc"` and `1.50` becomes `"#1.50"`.
    private static func tagTokens(_ data: Data) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(data.count + data.count / 4 + 8)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    output.append(byte)
                    output.append(stringTag)
                    index += 1
                    var escaped = false
                    while index < count {
                        let inner = bytes[index]
                        output.append(inner)
                        index += 1
                        if escaped {
                            escaped = false
                        } else if inner == UInt8(ascii: "\\") {
                            escaped = true
                        } else if inner == UInt8(ascii: "\"") {
                            break
                        }
                    }
                } else if byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) {
                    output.append(UInt8(ascii: "\""))
                    output.append(numberTag)
                    while index < count, isNumberByte(bytes[index]) {
                        output.append(bytes[index])
                        index += 1
                    }
                    output.append(UInt8(ascii: "\""))
                } else {
                    output.append(byte)
                    index += 1
                }
            }
        }
        return Data(output)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private static func value(from object: Any) throws -> JSONValue {
        if let string = object as? String {
            return try tagged(string)
        }
        if let array = object as? [Any] {
            return .array(try array.map(value(from:)))
        }
        if let dictionary = object as? [String: Any] {
            var result = [String: JSONValue](minimumCapacity: dictionary.count)
            for (key, element) in dictionary {
                guard case .string(let name) = try tagged(key) else {
                    throw MalformedJSON(reason: "an object key is not a string")
                }
                result[name] = try value(from: element)
            }
            return .object(result)
        }
        if object is NSNull {
            return .null
        }
        if let number = object as? NSNumber {
            // Every number was tagged as a string, so what is left is a boolean.
            return .bool(number.boolValue)
        }
        throw MalformedJSON(reason: "an unexpected value")
    }

    private static func tagged(_ string: String) throws -> JSONValue {
        let utf8 = string.utf8
        guard let first = utf8.first else {
            throw MalformedJSON(reason: "an untagged token")
        }
        let rest = String(string.unicodeScalars.dropFirst())
        if first == stringTag {
            return .string(rest)
        }
        if first == numberTag, let number = JSONNumber(text: rest) {
            return .number(number)
        }
        throw MalformedJSON(reason: "a number is not written as JSON allows")
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

    private static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number):
            output.append(contentsOf: number.text.utf8)
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

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let plain =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            } ?? false
        if plain {
            output.append(contentsOf: text.utf8)
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
    /// Encodes any `Encodable` value (a row struct, say) into a JSON value, keeping numbers exact.
    ///
    /// Dates are written as ISO 8601 strings, as supabase-swift does.
    package init<T: Encodable>(encoding value: T) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        self = try JSONText.parse(try encoder.encode(value))
    }

    /// Decodes this value into a `Decodable` type (ISO 8601 dates, with or without fractions).
    package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValue.decoder.decode(type, from: JSONText.data(self))
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = ISO8601Timestamp.date(from: text) { return date }
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A date is not in ISO 8601 form.")
        }
        return decoder
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

    /// Milliseconds in UTC, as supabase-swift writes dates.
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
