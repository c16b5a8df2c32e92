import Foundation

/// Percent-encoding for query parameters: everything outside RFC 3986's unreserved characters
/// is encoded, so `+` goes out as `%2B` (PostgREST reads a raw `+` as a space) and `,()":`
/// cannot be misread.
enum PercentEncoding {
    /// `text` with every byte outside the unreserved set written as `%XX`.
    static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + hex(byte >> 4) + hex(byte & 0x0F)
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hex(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? nibble + 48 : nibble + 55))
    }

    /// The percent-encoded query `name=value&name=value`.
    static func query(_ parameters: [QueryParameter]) -> String {
        parameters.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }
}
