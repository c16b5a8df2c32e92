import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Rows made offline decode: the values a table declares are made on the device (a uuid key
/// sent, a time shown only), and a queued write whose rows do not decode says it is queued.
@Suite("Rows made offline: values made on the device", .timeLimit(.minutes(10)))
struct ClientDeviceValuesTests {
    private static let channels = TableSettings(key: ["id"], madeOnDevice: ["id": .uuid, "created_at": .now])

    @Test(
        "without declared values, a queued insert(…).select().single() whose row lacks its id throws QueuedWriteDecodingError with its pending write, never a bare DecodingError"
    )
    func queuedWriteNeverLooksFailed() async throws {
        let fixture = try await ClientFixture(tables: ["channels": []])
        await fixture.client.disableNetwork()
        let error = await #expect(throws: QueuedWriteDecodingError.self) {
            let _: Channel = try await fixture.client.from("channels").insert(["name": "general"] as Row)
                .select()
                .single().execute().value
        }
        let pending = try await firstValue(of: fixture.client.pendingMutations(table: "channels")) {
            !$0.isEmpty
        }
        #expect(error?.pending.id == pending.first?.id)
        #expect(!(error?.description.contains("general") ?? true), "no row data in the words shown")
        await fixture.client.close()
    }

    @Test(
        "a declared uuid key and created_at: an offline insert decodes as the value, in the list and across a relaunch; the id is sent, created_at is not"
    )
    func madeOnDevice() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let server = InMemoryPostgREST(tables: ["channels": []])
            let first = try await ClientFixture(storage: .directory(folder), server: server) {
                $0.tables = ["channels": Self.channels]
            }
            let list = first.client.from("channels").select().order("name")
            _ = try await list.fetch()
            await first.client.disableNetwork()
            let saved: Channel = try await first.client.from("channels").insert(["name": "general"] as Row)
                .select()
                .single().execute().value
            #expect(saved.name == "general")
            #expect(saved.id.uuidString.lowercased() == saved.id.uuidString.lowercased())
            let shown = try await firstValue(of: list.snapshots()) { $0.result?.rows.count == 1 }
            #expect(try shown.result?.decode([Channel].self) == [saved])
            let pending = try await firstValue(of: first.client.pendingMutations(table: "channels")) {
                !$0.isEmpty
            }
            #expect(pending.first?.rowKeys.first?.values == [saved.id.uuidString.lowercased()])
            await first.client.close()

            let second = try await ClientFixture(storage: .directory(folder), signedInAs: nil, server: server)
            {
                $0.tables = ["channels": Self.channels]
                $0.networkAvailability = AsyncStream { $0.yield(false) }
            }
            let relaunched = try await firstValue(
                of: second.client.from("channels").select().order("name").snapshots()
            ) {
                $0.result?.rows.count == 1
            }
            #expect(try relaunched.result?.decode([Channel].self) == [saved])
            await second.client.close()

            let third = try await ClientFixture(storage: .directory(folder), signedInAs: nil, server: server)
            {
                $0.tables = ["channels": Self.channels]
            }
            _ = try await firstValue(of: third.client.pendingMutationCount()) { $0 == 0 }
            let sent = try #require(third.writes.last?.body.flatMap { try? JSONText.parse($0) })
            guard case .array(let rows) = sent, case .object(let row)? = rows.first else {
                Issue.record("the body is not an array of rows")
                return
            }
            #expect(
                row["id"] == .string(saved.id.uuidString.lowercased()), "the key made on the device is sent")
            #expect(row["created_at"] == nil, "the time made on the device is shown only")
            #expect(
                await server.rows(of: "channels").first?["id"] == .string(saved.id.uuidString.lowercased()))
            await third.client.close()
        }
    }

    @Test("where the app declared nothing, a row is sent and shown as written")
    func nothingDeclared() async throws {
        let fixture = try await ClientFixture(tables: ["channels": []])
        let list = fixture.client.from("channels").select()
        _ = try await list.fetch()
        await fixture.client.disableNetwork()
        try await fixture.client.from("channels").insert(["name": "general"] as Row).execute()
        let shown = try await firstValue(of: list.snapshots()) { $0.result?.rows.count == 1 }
        #expect(shown.result?.rows.first?.values == ["name": "general"])
        await fixture.client.close()
    }
}
