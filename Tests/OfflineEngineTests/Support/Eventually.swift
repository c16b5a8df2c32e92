import OfflineEngineTesting

@testable import OfflineEngine

/// Waits until `condition` holds, checking again whenever other tasks have run, failing after
/// `seconds`; for facts no stream reports (a task ended, a sleeper left the clock).
func eventually(
    within seconds: Double = 30, _ condition: @escaping @Sendable () async -> Bool
) async throws {
    try await withTimeout(seconds) {
        while await !condition() {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}
