@testable import OfflineEngine

extension ClientFixture {
    /// A new client whose insert of `row` into `tasks`, made with the network known down, is
    /// queued.
    static func withQueuedInsert(_ row: Row) async throws -> ClientFixture {
        let fixture = try await ClientFixture()
        try await fixture.client.insertOffline(row)
        return fixture
    }
}
