@testable import OfflineEngine

extension ClientFixture {
    /// Makes the network known up again, waits for the replay to sleep before its first retry,
    /// and lets that first 300 ms pass.
    func reconnectPastFirstRetry() async throws {
        await client.enableNetwork()
        try await sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(300))
    }
}
