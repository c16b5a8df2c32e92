@testable import OfflineEngine

extension ClientFixture {
    /// A client whose server holds task 1 but answers every read with `status` and `code`, and
    /// a read of all of `tasks`.
    static func failingTaskRead(
        status: Int = 500, code: String = "XX000"
    ) async throws -> (fixture: ClientFixture, read: ReadQuery) {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        fixture.probe.failReads(status: status, code: code)
        return (fixture, fixture.client.from("tasks").select())
    }
}
