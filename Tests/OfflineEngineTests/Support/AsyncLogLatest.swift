import OfflineEngineTesting

extension AsyncLog {
    /// Waits, at most `seconds`, until the latest value logged satisfies `isReached`.
    func waitForLatest(
        within seconds: Double = 30, where isReached: @escaping @Sendable (Value) -> Bool
    ) async throws {
        try await withTimeout(seconds) { [self] in
            while !(values.last.map(isReached) ?? false) {
                _ = try await values(atLeast: values.count + 1)
            }
        }
    }
}
