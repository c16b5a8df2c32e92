/// Live-read latency: filled in with the live-read suite.
enum LiveBenchmark {
    static func run() async throws {}
}
