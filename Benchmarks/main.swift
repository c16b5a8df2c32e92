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

for suite in requested.isEmpty ? allSuites[...] : requested {
    switch suite {
    case "streams":
        await StreamsBenchmark.run()
    case "filters":
        try await FiltersBenchmark.run()
    case "store":
        try await StoreBenchmark.run()
    case "overlay":
        try await OverlayBenchmark.run()
    case "live":
        try await LiveBenchmark.run()
    case "live.models":
        try await LiveBenchmark.reportModels()
    case "scale":
        try await ScaleBenchmark.run()
    case "replay":
        try await ReplayBenchmark.run()
    case "follow":
        try await FollowBenchmark.run()
    case "signin":
        try await SignInBenchmark.run()
    case "json":
        try await JSONBenchmark.run()
    case "cache":
        try await CacheBenchmark.run()
    case let part where part.hasPrefix("cache."):
        try await CacheBenchmark.run(only: String(part.dropFirst("cache.".count)))
    case let part where part.hasPrefix("scale."):
        try await ScaleBenchmark.run(only: String(part.dropFirst("scale.".count)))
    default:
        print("unknown benchmark suite: \(suite); known: \(allSuites.joined(separator: ", "))")
        exit(2)
    }
}
