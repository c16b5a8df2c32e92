import Foundation
import OfflineEngine

/// The first way of reading JSON, kept as the benchmark's baseline and the tests' oracle.
///
/// Foundation's `JSONSerialization` does the parsing and validation. It would turn every number
/// into a `Double` or `Decimal` and lose digits (`1.50` becomes `1.5`), so one byte pass first
/// wraps each number token in a tagged string and tags every real string, which no input can
/// forge; the tags are read back while converting Foundation's objects.
extension JSONText {
    private static let stringTag = UInt8(ascii: "'")
    private static let numberTag = UInt8(ascii: "#")

    /// Parses JSON text through `JSONSerialization`, keeping numbers exact.
    package static func parseThroughFoundation(_ data: Data) throws -> JSONValue {
        let tagged = tagTokens(data)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: tagged, options: [.fragmentsAllowed])
        } catch {
            throw MalformedJSON(reason: "the text is not valid JSON")
        }
        return try value(from: object)
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
}
