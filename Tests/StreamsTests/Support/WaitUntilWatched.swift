import OfflineEngineTesting

@testable import Streams

/// Returns once `holder` has a waiting reader to wake.
func waitUntilWatched<Value: Sendable>(_ holder: StateBroadcast<Value, Never>) async throws {
    try await withTimeout { while holder.watcherCount == 0 { await Task.yield() } }
}
