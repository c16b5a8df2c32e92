extension ManualClock {
    /// Runs `body` while moving this clock forward by `step` each time something sleeps on it,
    /// so retry schedules run through in milliseconds while requests take real time:
    ///
    /// ```swift
    /// let rejected = try await clock.driving {
    ///     try await client.waitForPendingWrites()   // through the replay's waits
    /// }
    /// ```
    public func driving<T: Sendable>(
        by step: Duration = .seconds(60), _ body: @escaping @Sendable () async throws -> T
    )
        async throws -> T
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                while !Task.isCancelled {
                    await self.sleepers(atLeast: 1)
                    self.advance(by: step)
                    await Task.yield()
                }
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    }
}
