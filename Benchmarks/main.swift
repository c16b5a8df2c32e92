// Runs one benchmark suite, named by the first argument: `swift run -c release Benchmarks <suite>`.
switch CommandLine.arguments.dropFirst().first {
case "filters":
    try await FiltersBenchmark.run()
default:
    print("benchmarks: name a suite (filters)")
}
