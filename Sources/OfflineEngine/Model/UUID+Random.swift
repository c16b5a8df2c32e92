import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension UUID {
    /// A new random (version 4) UUID from the system's random source. Foundation's `UUID()` on
    /// Linux opens, reads and closes `/dev/urandom` each time (about 5 µs, measured; a queued
    /// write makes one or two), and two `SystemRandomNumberGenerator` draws are two `getrandom`
    /// calls (about 3% of an offline `execute()`): here one read of `/dev/urandom` fills 64 ids'
    /// worth at a time.
    package static func random() -> UUID {
        var bytes = RandomBytes.shared.withLock { $0.take() }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}

/// Random bytes drawn from the system a kilobyte at a time and handed out 16 at a time.
private struct RandomBytes {
    static let shared = Mutex(RandomBytes())

    private var pool = [UInt64](repeating: 0, count: 128)
    private var next = 128

    mutating func take() -> (UInt64, UInt64) {
        if next + 2 > pool.count { refill() }
        defer { next += 2 }
        return (pool[next], pool[next + 1])
    }

    private mutating func refill() {
        #if canImport(Glibc)
            let file = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            let filled =
                file >= 0
                && pool.withUnsafeMutableBytes { buffer in
                    read(file, buffer.baseAddress, buffer.count) == buffer.count
                }
            if file >= 0 { close(file) }
            if !filled { fillFromGenerator() }
        #else
            fillFromGenerator()
        #endif
        next = 0
    }

    /// The standard generator: arc4random on Apple platforms (no system call), and the
    /// fallback should reading `/dev/urandom` fail.
    private mutating func fillFromGenerator() {
        var source = SystemRandomNumberGenerator()
        for index in pool.indices { pool[index] = source.next() }
    }
}
