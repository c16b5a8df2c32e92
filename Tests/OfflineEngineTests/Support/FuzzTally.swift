import Foundation

/// What a fuzz target saw: inputs tried, inputs slower than a hang's limit, and the inputs that
/// broke a property (kept to name them in the failure).
struct FuzzTally {
    let target: String
    var inputs = 0
    var hangs: [String] = []
    var broken: [String] = []

    /// Longer than this for one input counts as a hang (these parsers are linear).
    static let hangLimit: Duration = .seconds(2)

    /// How many inputs each target tries: `FUZZ_INPUTS` in the environment, or `standard`.
    static func inputs(standard: Int) -> Int {
        ProcessInfo.processInfo.environment["FUZZ_INPUTS"].flatMap(Int.init) ?? standard
    }

    /// Tries `input` with `check`, timing it; `check` returns a broken property's words or nil.
    mutating func run(_ input: [UInt8], _ check: ([UInt8]) -> String?) {
        inputs += 1
        let clock = ContinuousClock()
        let start = clock.now
        let problem = check(input)
        if clock.now - start > Self.hangLimit { hangs.append(Self.shown(input)) }
        if let problem { broken.append("\(problem): \(Self.shown(input))") }
    }

    /// The input as Swift would write it in a test (for a crash or break to become one).
    static func shown(_ input: [UInt8]) -> String {
        String(decoding: input, as: UTF8.self).debugDescription
    }
}
