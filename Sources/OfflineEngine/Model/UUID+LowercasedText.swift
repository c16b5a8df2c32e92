import Foundation

extension UUID {
    /// The UUID in lower case with hyphens, as Postgres writes it and the store keys writes.
    ///
    /// The same text as `uuidString.lowercased()`, written straight from the bytes: Foundation
    /// formats through `sprintf` and lowercasing makes a second string, which showed in the
    /// replay profile (every queued write is keyed by it several times).
    package var lowercasedText: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { output in
                digits.withUTF8Buffer { hex in
                    var position = 0
                    for (index, byte) in bytes.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            output[position] = UInt8(ascii: "-")
                            position += 1
                        }
                        output[position] = hex[Int(byte >> 4)]
                        output[position + 1] = hex[Int(byte & 0x0F)]
                        position += 2
                    }
                }
                return 36
            }
        }
    }
}
