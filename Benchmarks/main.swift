#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Usage: `Benchmarks [suite ...]`; runs every suite when none is named; `scale.replay` (and so
// on) runs one measure of the scale suite, `cache.evict` one of the cache suite, `live.models` the
// observable models' measure of the live suite. `replay` (batched replay through a delaying
// transport, about a minute), `follow` (a change feed against online writes) and `signin` (two
// users signing in in turn) run only when named.
let allSuites = ["streams", "filters", "store", "overlay", "live", "scale", "json", "cache"]
let requested = CommandLine.arguments.dropFirst()

/// Each suite by the name that runs it.
let suites: [String: () async throws -> Void] = [
    "streams": { await StreamsBenchmark.run() },
    "filters": { try await FiltersBenchmark.run() },
    "store": { try await StoreBenchmark.run() },
    "overlay": { try await OverlayBenchmark.run() },
    "live": { try await LiveBenchmark.run() },
    "live.models": { try await LiveBenchmark.reportModels() },
    "scale": { try await ScaleBenchmark.run() },
    "replay": { try await ReplayBenchmark.run() },
    "follow": { try await FollowBenchmark.run() },
    "signin": { try await SignInBenchmark.run() },
    "json": { try await JSONBenchmark.run() },
    "cache": { try await CacheBenchmark.run() },
]
/// The suites that run one of their measures when named `suite.measure`.
let measures: [String: (String) async throws -> Void] = [
    "cache": { try await CacheBenchmark.run(only: $0) },
    "scale": { try await ScaleBenchmark.run(only: $0) },
]

for suite in requested.isEmpty ? allSuites[...] : requested {
    if let run = suites[suite] {
        try await run()
    } else if let dot = suite.firstIndex(of: "."), let run = measures[String(suite[..<dot])] {
        try await run(String(suite[suite.index(after: dot)...]))
    } else {
        print("unknown benchmark suite: \(suite); known: \(allSuites.joined(separator: ", "))")
        exit(2)
    }
}
