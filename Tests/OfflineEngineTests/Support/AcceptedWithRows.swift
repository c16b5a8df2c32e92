import Testing

@testable import OfflineEngine

/// A task row as the clearing tests decode a write's returned rows.
private struct Titled: Decodable {
    var id: Int
    var title: String
}

extension OfflineClient {
    /// Inserts `row` into `tasks` offline, asking for its row back (it decodes, queued), then
    /// lets the server accept it: its returned rows are kept for `outcome(of:)`.
    func insertQueuedThenAccepted(_ row: Row) async throws {
        await disableNetwork()
        let queued: WriteResponse<[Titled]> = try await from("tasks").insert(row).select().execute()
        #expect(queued.isQueued)
        await enableNetwork()
        try await waitForPendingWrites()
    }
}
