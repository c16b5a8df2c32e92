import Foundation

/// A deterministic random source (SplitMix64), so a failing sequence can be replayed by seed.
struct SeededRandom: RandomNumberGenerator, Sendable {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }

    /// True with the given probability (0...1).
    mutating func chance(probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A version-4 UUID made from this source.
    mutating func uuid() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &self) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

extension SeededRandom {
    /// A source that makes the same choices again for the same seed.
    init(seed: UInt64) { self.init(state: seed) }
}
