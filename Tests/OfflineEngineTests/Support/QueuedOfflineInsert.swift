@testable import OfflineEngine

extension OfflineClient {
    /// Makes the network known down, then inserts `row` into `table`: the write stays queued.
    func insertOffline(_ row: Row, into table: String = "tasks") async throws {
        await disableNetwork()
        _ = try await from(table).insert(row).execute()
    }
}
