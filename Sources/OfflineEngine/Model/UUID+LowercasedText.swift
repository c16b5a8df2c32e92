import Foundation

extension UUID {
    /// The UUID in lower case with hyphens, as Postgres writes it and the store keys writes.
    ///
    /// The same text as `uuidString.lowercased()`, written straight from the bytes: Foundation
    /// formats through `sprintf` and lowercasing makes a second string, which showed in the
    /// replay profile (every queued write is keyed by it several times).
    package var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { output in
            writeLowercasedText(to: output)
            return 36
        }
    }

    /// Appends ``lowercasedText``'s 36 bytes to `output` without making the string.
    package func appendLowercasedText(to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: 36))
        output.withUnsafeMutableBufferPointer { buffer in
            writeLowercasedText(to: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes the text into the first 36 bytes of `output`.
    private func writeLowercasedText(to output: UnsafeMutableBufferPointer<UInt8>) {
        let digits: StaticString = "0123456789abcdef"
        withUnsafeBytes(of: uuid) { bytes in
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
        }
    }
}
