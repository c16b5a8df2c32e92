import Foundation
import Testing

@testable import OfflineEngine

@Suite("client.schema(_:)", .timeLimit(.minutes(10)))
struct ClientSchemaScopeTests {
    @Test("client.schema(_:).from(_:) reads and writes that schema's table, as from(_:schema:) does")
    func scopesToSchema() async throws {
        let fixture = try await ClientFixture()
        let scoped = fixture.client.schema("audit").from("events")
        #expect(scoped.select().query.schema == "audit")
        #expect(scoped.select().query == fixture.client.from("events", schema: "audit").select().query)
        #expect(try scoped.insert(["id": 1] as Row).mutation.schema == "audit")
        #expect(fixture.client.schema("audit").name == "audit")
        await fixture.client.close()
    }
}
