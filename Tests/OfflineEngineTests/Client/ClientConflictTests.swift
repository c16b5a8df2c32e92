import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `expectingRows()`: an update or delete that reaches no row is a conflict, not a success.
@Suite("Conflicts: writes that must reach a row", .timeLimit(.minutes(10)))
struct ClientConflictTests {
    @Test("sent at once, reaching no row throws the conflict; without the option it is a success")
    func atOnce() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "done": false]]])
        let error = await #expect(throws: PostgrestError.self) {
            try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 9)
                .expectingRows()
                .execute()
        }
        #expect(error?.code == RejectedMutation.conflictCode && error?.status == 409)
        #expect(fixture.writes.last?.headers["Prefer"] == "return=minimal,count=exact")
        let reached = try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 1)
            .expectingRows().execute()
        #expect(!reached.isQueued)
        let plain = try await fixture.client.from("tasks").delete().eq("id", value: 9).execute()
        #expect(!plain.isQueued)
        await fixture.client.close()
    }

    @Test(
        "queued, then replayed after the row was deleted elsewhere, across a relaunch: rejected as a conflict"
    )
    func replayed() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture.offlineFirstLaunch(
                in: folder, tables: ["tasks": [["id": 1, "done": false]]])
            let server = first.server
            try await first.client.from("tasks").update(["done": true] as Row).eq("id", value: 1)
                .expectingRows()
                .execute()
            await first.client.close()
            await server.setRows([], of: "tasks")  // another device deleted the row meanwhile
            let second = try await ClientFixture(storage: .directory(folder), signedInAs: nil, server: server)
            let rejected = try await firstValue(of: second.client.rejectedMutations()) { !$0.isEmpty }
            #expect(rejected.map(\.error.code) == [RejectedMutation.conflictCode])
            #expect(rejected.first?.values == [["done": true]])
            #expect(try await second.client.store.rejected.all().map(\.mutation.id) == rejected.map(\.id))
            #expect(try await second.client.store.queue.all().isEmpty)
            await second.client.close()
        }
    }

    @Test(
        "a replayed expectingRows delete whose first answer was lost reaches no row when sent again: applied, never a conflict"
    )
    func deleteAfterLostAnswer() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "done": false]]])
        let client = fixture.client
        await client.disableNetwork()
        let sent = try await client.from("tasks").delete().eq("id", value: 1).expectingRows().execute()
        guard case .queued(let pending) = sent.outcome else { throw ClientError.closed }
        // The server applies the delete and its answer is lost.
        let server = fixture.server
        let first = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .delete, first.take() else { return nil }
            await server.setRows([], of: "tasks")
            throw TransportError(kind: .connectionLost)
        }
        await client.enableNetwork()
        _ = try await fixture.probe.writes(atLeast: 1)
        try await fixture.sleepers(atLeast: 1)
        fixture.clock.advance(by: .milliseconds(300))
        guard case .accepted = try await client.outcome(of: pending.id) else {
            Issue.record("the delete its own lost attempt applied was not settled as accepted")
            return
        }
        #expect(fixture.writes.count == 2)
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.isEmpty)
        await client.close()
    }
}
