/// How a `jsonb` column reads a filter's text: `col = 'text'::jsonb` parses the text as JSON.
///
/// Only what matters for comparing with a JSON string is worked out exactly: whether the text is
/// a JSON string literal and what it decodes to. Anything else that may be valid JSON is "some
/// other JSON value"; text that cannot be JSON is an error for a `jsonb` column.
enum JSONLiteralProbe: Equatable {
    /// Not JSON: a `jsonb` column rejects the filter.
    case invalid
    /// A JSON string literal, decoded.
    case string(String)
    /// Possibly valid JSON that is not a string (a number, `true`, an array, ...).
    case otherValue
    /// A string literal the engine does not decode with certainty (an odd escape).
    case unsure

    /// Probes `text` the way Postgres's JSON parser would read it.
    init(_ text: String) {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, JSONLiteralProbe.isJSONSpace(bytes[start]) { start += 1 }
        while end > start, JSONLiteralProbe.isJSONSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else {
            self = .invalid
            return
        }
        let body = bytes[start..<end]
        switch body[start] {
        case UInt8(ascii: "\""):
            self = JSONLiteralProbe.decodeString(body)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word = String(decoding: body, as: UTF8.self)
            self = word == "true" || word == "false" || word == "null" ? .otherValue : .invalid
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = String(decoding: body, as: UTF8.self)
            self = JSONNumber.isValid(number) ? .otherValue : .invalid
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            self = .otherValue
        default:
            self = .invalid
        }
    }

    /// Whether the first byte of `text` (after JSON whitespace) can start JSON at all; a cheap
    /// test that spares the full probe for plain words.
    static func mayBeJSON(_ text: String) -> Bool {
        for byte in text.utf8 {
            if isJSONSpace(byte) { continue }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "["),
                UInt8(ascii: "{"):
                return true
            default:
                return false
            }
        }
        return false
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Decodes `"..."` with JSON's escapes; anything after the closing quote makes it invalid.
    private static func decodeString(_ body: ArraySlice<UInt8>) -> JSONLiteralProbe {
        var scalars = String.UnicodeScalarView()
        let raw = Array(body.dropFirst())
        var index = 0
        var closed = false
        var plainStart = 0
        func flushPlain(upTo end: Int) -> Bool {
            guard plainStart < end else { return true }
            let chunk = raw[plainStart..<end]
            guard let text = String(validating: chunk, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            return true
        }
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "\"") {
                guard flushPlain(upTo: index) else { return .unsure }
                closed = true
                index += 1
                break
            }
            if byte < 0x20 { return .invalid }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            guard flushPlain(upTo: index), index + 1 < raw.count else { return .invalid }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                // Surrogate pairs, \u0000 and lone surrogates: Postgres has its own rules.
                guard index + 4 <= raw.count,
                    let code = UInt32(String(decoding: raw[index..<index + 4], as: UTF8.self), radix: 16)
                else { return .invalid }
                guard code != 0, let scalar = Unicode.Scalar(code) else { return .unsure }
                scalars.append(scalar)
                index += 4
            default:
                return .invalid
            }
            plainStart = index
        }
        guard closed else { return .invalid }
        guard index == raw.count else { return .invalid }
        return .string(String(scalars))
    }
}
