#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Usage: `Benchmarks [suite ...]`; runs every suite when none is named.
let allSuites = ["streams"]
let requested = CommandLine.arguments.dropFirst()

for suite in requested.isEmpty ? allSuites[...] : requested {
    switch suite {
    case "streams":
        await StreamsBenchmark.run()
    default:
        print("unknown benchmark suite: \(suite); known: \(allSuites.joined(separator: ", "))")
        exit(2)
    }
}
