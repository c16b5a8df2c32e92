import Foundation
import Testing

@testable import OfflineEngine

/// `events`: what the client did, for logs, with table, operation and write id, never values.
@Suite("The events stream", .timeLimit(.minutes(10)))
struct ClientEventsTests {
    @Test(
        "a write queued, replayed and accepted, one rejected, and a read's refresh, in the order they happened"
    )
    func events() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let client = fixture.client
        let events = client.events
        let seen = AsyncLog<SyncEvent>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await event in events { seen.append(event) }
            }
            _ = try await firstValue(of: client.from("tasks").select().snapshots()) { $0.refresh == .idle }
            fixture.probe.answer { request in
                request.method == .post && request.bodyRows.first?["id"] == 3
                    ? errorResponse(status: 403, code: "42501") : nil
            }
            await client.disableNetwork()
            let accepted = try await client.from("tasks").insert(["id": 2] as Row).execute()
            // Other columns than the write before: it goes in a request of its own.
            let refused = try await client.from("tasks").insert(["id": 3, "title": "c"] as Row).execute()
            await client.enableNetwork()
            _ = try await firstValue(of: client.rejectedMutations()) { !$0.isEmpty }
            try await client.waitForPendingWrites()
            await client.close()
            try await group.waitForAll()
            let log = seen.values
            let acceptedID = try #require(accepted.outcome.queuedID)
            let refusedID = try #require(refused.outcome.queuedID)
            #expect(log.contains(SyncEvent.Kind.readSent, table: "tasks"))
            #expect(log.contains { $0.kind == .refreshChanged(.idle) && $0.table == "tasks" })
            let kinds = log.filter { $0.mutationID == acceptedID }.map(\.kind)
            #expect(kinds == [.writeQueued, .writeSent, .writeAccepted])
            #expect(
                log.filter { $0.mutationID == refusedID }.map(\.kind).last == .writeRejected(code: "42501"))
            #expect(log.contains { $0.kind == .replayStarted } && log.contains { $0.kind == .replayEnded })
            #expect(log.allSatisfy { $0.mutationID == nil || $0.operation == .insert })
        }
    }
}

extension [SyncEvent] {
    fileprivate func contains(_ kind: SyncEvent.Kind, table: String) -> Bool {
        contains { $0.kind == kind && $0.table == table }
    }
}
