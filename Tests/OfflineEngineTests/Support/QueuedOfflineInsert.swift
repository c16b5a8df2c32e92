import Testing

@testable import OfflineEngine

extension OfflineClient {
    /// Makes the network known down, then inserts `row` into `table`: the write stays queued.
    func insertOffline(_ row: Row, into table: String = "tasks") async throws {
        await disableNetwork()
        _ = try await from(table).insert(row).execute()
    }

    /// Makes the network known down, inserts `row` into `table` and returns the queued write;
    /// records an issue and returns nil when the write was not queued.
    func queuedInsertOffline(_ row: Row, into table: String = "tasks") async throws -> PendingMutation? {
        await disableNetwork()
        let result = try await from(table).insert(row).execute().outcome
        guard case .queued(let pending) = result else {
            Issue.record("expected a queued write, got \(result)")
            return nil
        }
        return pending
    }
}
