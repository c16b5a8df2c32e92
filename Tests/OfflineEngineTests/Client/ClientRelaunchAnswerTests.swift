import Foundation
import Testing

@testable import OfflineEngine

@Suite("A write in flight when the app died", .timeLimit(.minutes(10)))
struct ClientRelaunchAnswerTests {
    @Test("after a relaunch, a keyless insert that was in flight is set aside, and a keyed one is checked")
    func inFlightAtRelaunch() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture(storage: .directory(folder))
            try await first.client.insertOffline(["title": "no id"])
            _ = try await first.client.from("tasks").insert(["id": 7, "title": "keyed"] as Row).execute()
            // Both were sent and the app died before an answer: the server applied them.
            let store = first.client.store
            for queued in try await store.queue.all() {
                _ = try await store.queue.beginAttempt(queued.mutation.id)
            }
            await first.client.close()
            await first.server.setRows([["title": "no id"], ["id": 7, "title": "keyed"]], of: "tasks")

            let second = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: first.server, probe: ServerProbe())
            let rejected = try await firstValue(of: second.client.rejectedMutations()) { !$0.isEmpty }
            #expect(rejected.map(\.mayHaveBeenApplied) == [true])
            _ = try await firstValue(of: second.client.pendingMutationCount()) { $0 == 0 }
            #expect(second.writes.map { $0.bodyRows.first?["id"] } == [7])
            #expect(
                await second.server.rows(of: "tasks") == [["title": "no id"], ["id": 7, "title": "keyed"]])
            #expect(try await firstValue(of: second.client.rejectedMutations()) { _ in true }.count == 1)
            await second.client.close()
        }
    }
}
