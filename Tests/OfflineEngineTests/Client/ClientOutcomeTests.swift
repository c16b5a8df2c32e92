import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `outcome(of:)`: a queued write's server outcome, awaited by id, in this run and after a
/// relaunch.
@Suite("Outcomes of queued writes", .timeLimit(.minutes(10)))
struct ClientOutcomeTests {
    @Test(
        "accepted, rejected and conflict are told once the writes leave the queue, and again after a relaunch"
    )
    func acrossRelaunch() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture.offlineFirstLaunch(
                in: folder, tables: ["tasks": [["id": 5, "done": false]]])
            let server = first.server
            let ids = try await [
                first.client.from("tasks").insert(["id": 1] as Row).select().execute(),
                first.client.from("tasks").insert(["id": 2] as Row).execute(),
                first.client.from("tasks").update(["done": true] as Row).eq("id", value: 9).expectingRows()
                    .execute(),
            ].map { try #require($0.outcome.queuedID) }
            await first.client.close()

            let probe = ServerProbe()
            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: server, probe: probe)
            probe.answer { request in
                request.method == .post && request.bodyRows.first?["id"] == 2
                    ? errorResponse(status: 403, code: "42501") : nil
            }
            guard case .accepted(_, let rows) = try await second.client.outcome(of: ids[0]) else {
                Issue.record("the insert was not told accepted")
                return
            }
            #expect(rows == [["id": 1]])
            guard case .rejected(let refused) = try await second.client.outcome(of: ids[1]) else {
                Issue.record("the refused insert was not told rejected")
                return
            }
            #expect(refused.error.code == "42501")
            guard case .conflict = try await second.client.outcome(of: ids[2]) else {
                Issue.record("the update that reached no row was not told a conflict")
                return
            }
            #expect(try await second.client.outcome(of: UUID()) == .unknown)
            await second.client.close()

            let third = try await ClientFixture(storage: .directory(folder), signedInAs: nil, server: server)
            guard case .accepted(_, let kept) = try await third.client.outcome(of: ids[0]) else {
                Issue.record("the accepted write was forgotten at the relaunch")
                return
            }
            #expect(kept == [["id": 1]])
            try await third.client.dismissRejected(ids[1])
            #expect(try await third.client.outcome(of: ids[1]) == .unknown)
            await third.client.close()
        }
    }

    @Test("closing the client while a write is queued ends the wait with ClientError.closed")
    func closing() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.disableNetwork()
        let id = try #require(
            try await fixture.client.from("tasks").insert(["id": 1] as Row).execute().outcome.queuedID)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect(throws: ClientError.closed) { _ = try await fixture.client.outcome(of: id) }
            }
            await fixture.client.close()
            try await group.waitForAll()
        }
    }
}
