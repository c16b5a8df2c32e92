// Runs one benchmark suite, named by the first argument: `swift run -c release Benchmarks <suite>`.
switch CommandLine.arguments.dropFirst().first {
case "store": try await StoreBenchmark.run()
default: print("benchmarks: usage: Benchmarks <suite> (suites: store)")
}
