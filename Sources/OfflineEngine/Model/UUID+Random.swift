import Foundation

extension UUID {
    /// A new random (version 4) UUID from the system's random source: one `getrandom` call on
    /// Linux, where Foundation's `UUID()` opens, reads and closes `/dev/urandom` each time (about
    /// 5 µs, measured; a queued write makes one or two).
    package static func random() -> UUID {
        var source = SystemRandomNumberGenerator()
        var bytes = (source.next(), source.next())
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
