import Foundation
import OfflineEngineTesting

/// Mutates valid inputs into the near-valid ones that find parser bugs, from a seed, so any
/// input it makes can be made again: bit flips, bytes and grammar tokens inserted, ranges cut,
/// repeated or swapped, splices from another valid input, and truncation.
struct ByteMutator {
    private var random: SeededRandom
    /// Pieces of the grammars under test, inserted whole: quotes, escapes, brackets, operators,
    /// long digit runs, invalid UTF-8 and surrogates.
    private static let tokens: [[UInt8]] =
        [
            "\"", "\\", "\\u", "\\uD800", "\\uDFFF", "{", "}", "[", "]", ",", ":", "(", ")", ".", "not.",
            "eq.", "in.(", "is.null", "or=(", "and(", "->>", "e", "E-", "-", "0", "1e400",
            "99999999999999999999",
            "null", "true", "\u{0}", "é", "😀", "%", "%2C", "&", "=", "*", " ", "\n",
        ].map { Array($0.utf8) } + [
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ]

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// One to four mutations of `input`, `donor` the source of splices.
    mutating func mutate(_ input: [UInt8], donor: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...Int.random(in: 0...3, using: &random) { mutateOnce(&bytes, donor: donor) }
        return bytes
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8], donor: [UInt8]) {
        let at = Int.random(in: 0...bytes.count, using: &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0 where !bytes.isEmpty:
            let index = min(at, bytes.count - 1)
            bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
        case 1:
            bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
        case 2:
            bytes.insert(contentsOf: random.pick(Self.tokens), at: at)
        case 3 where !bytes.isEmpty:
            let end = min(bytes.count, at + Int.random(in: 1...8, using: &random))
            bytes.removeSubrange(min(at, end)..<end)
        case 4 where !bytes.isEmpty:
            let start = min(at, bytes.count - 1)
            let end = min(bytes.count, start + Int.random(in: 1...16, using: &random))
            let piece = bytes[start..<end]
            for _ in 0..<Int.random(in: 1...3, using: &random) { bytes.insert(contentsOf: piece, at: start) }
        case 5 where !donor.isEmpty:
            let start = Int.random(in: 0..<donor.count, using: &random)
            let end = min(donor.count, start + Int.random(in: 1...32, using: &random))
            bytes.insert(contentsOf: donor[start..<end], at: at)
        case 6:
            bytes.removeSubrange(at..<bytes.count)
        default:
            let nested = random.pick([Array("[".utf8), Array("{\"a\":".utf8), Array("(".utf8)])
            for _ in 0..<Int.random(in: 1...64, using: &random) { bytes.insert(contentsOf: nested, at: at) }
        }
    }

    /// A random pick among `choices`.
    mutating func pick<T>(_ choices: [T]) -> T { random.pick(choices) }
}
