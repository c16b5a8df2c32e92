import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `close()` while a write's request is out: the request may have reached the server, so the
/// write stays marked as possibly applied, as if the app had died (SPEC 3 and 7).
@Suite("A write in flight when the client closes", .timeLimit(.minutes(10)))
struct ClientCloseInFlightTests {
    @Test("a keyless insert whose replayed request was out at close is not sent again after a relaunch")
    func replayedInsertAtClose() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture(storage: .directory(folder))
            try await first.client.insertOffline(["title": "no id"])
            first.applyingFirstInsertAndHanging()
            await first.client.enableNetwork()
            _ = try await first.probe.writes(atLeast: 1)
            await first.client.close()
            #expect(await first.server.rows(of: "tasks") == [["title": "no id"]])

            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: first.server, probe: ServerProbe())
            let rejected = try await firstValue(of: second.client.rejectedMutations()) { !$0.isEmpty }
            #expect(rejected.map(\.mayHaveBeenApplied) == [true])
            #expect(second.writes.isEmpty)
            #expect(await second.server.rows(of: "tasks") == [["title": "no id"]])
            await second.client.close()
        }
    }

    @Test("a write sent at once whose caller's task is cancelled while its request is out stays queued")
    func immediateInsertCancelled() async throws {
        let fixture = try await ClientFixture()
        fixture.applyingFirstInsertAndHanging()
        let call = Task {
            try await fixture.client.from("tasks").insert(["title": "no id"] as Row).execute().outcome
        }
        _ = try await fixture.probe.writes(atLeast: 1)
        call.cancel()
        let outcome = try await call.value
        guard case .queued = outcome else {
            Issue.record("expected the write kept in the queue, got \(outcome)")
            return
        }
        // The request may have reached the server: a keyless insert is set aside, never sent twice.
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(rejected.map(\.mayHaveBeenApplied) == [true])
        #expect(fixture.writes.count == 1)
        #expect(await fixture.server.rows(of: "tasks") == [["title": "no id"]])
        await fixture.client.close()
    }
}
