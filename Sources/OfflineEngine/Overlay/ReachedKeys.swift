/// The keys a list's writes reach, with one bit per key fingerprint in front of the set, so the
/// many rows no write touches are passed over without hashing their whole key.
struct ReachedKeys {
    /// The keys, as `OverlayKeys.indexKey(of:)` gives them.
    private(set) var keys: Set<String>
    /// Bit `fingerprint(key)` is set for every key.
    private var bits = [UInt64](repeating: 0, count: 1 << 10)

    /// An empty set with room for about `capacity` keys.
    init(minimumCapacity capacity: Int) {
        keys = Set(minimumCapacity: capacity)
    }

    /// Whether no key is reached.
    var isEmpty: Bool { keys.isEmpty }

    /// Adds a key.
    mutating func insert(_ key: String) {
        keys.insert(key)
        let bit = ReachedKeys.fingerprint(key)
        bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// Whether `key` is reached.
    func contains(_ key: String) -> Bool {
        let bit = ReachedKeys.fingerprint(key)
        guard bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return false }
        return keys.contains(key)
    }

    /// A 16-bit fingerprint of a key: its length and last eight UTF-8 bytes, mixed.
    private static func fingerprint(_ key: String) -> Int {
        let mix = { (bytes: UnsafeBufferPointer<UInt8>) -> Int in
            var value = UInt64(truncatingIfNeeded: bytes.count)
            for byte in bytes.suffix(8) { value = (value << 8) | UInt64(byte) }
            return Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) >> 48)
        }
        return key.utf8.withContiguousStorageIfAvailable(mix) ?? Array(key.utf8).withUnsafeBufferPointer(mix)
    }
}
