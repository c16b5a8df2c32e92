let suite = CommandLine.arguments.dropFirst().first ?? ""
switch suite {
case "overlay": try await OverlayBenchmark.run()
default: print("benchmarks: name a suite (overlay)")
}
