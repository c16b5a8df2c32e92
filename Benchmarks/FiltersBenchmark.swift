enum FiltersBenchmark {
    static func run() async throws {}
}
