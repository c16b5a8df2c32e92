import Foundation
import Testing

@testable import OfflineEngine

/// Replay sends the queue in runs whose attempts are committed together (see `ReplayRun`): what
/// the store says about each write while a run is under way and after it stops.
@Suite("Replay runs", .timeLimit(.minutes(10)))
struct ClientReplayRunTests {
    /// The queue as the store holds it: each write's `id` column, attempts and in-flight mark.
    private static func stored(_ client: OfflineClient) async throws -> [(
        id: JSONValue?, attempts: Int, inFlight: Bool
    )] {
        try await client.store.queue.all().map { write in
            (write.mutation.rows.first?["id"], write.mutation.attempts, write.isInFlight)
        }
    }

    /// A client with inserts of ids 1 through `count` queued offline (the network left off),
    /// each sent in a request of its own (batches are `ClientReplayBatchTests`').
    private static func offlineQueue(of count: Int) async throws -> ClientFixture {
        let fixture = try await ClientFixture(primaryKeys: ["tasks": ["id"]]) { $0.replayBatching = .off }
        await fixture.client.disableNetwork()
        for id in 1...count {
            _ = try await fixture.client.from("tasks").insert(["id": .number(JSONNumber(id))] as Row)
                .execute()
        }
        return fixture
    }

    /// Holds the POST of id 1 at a gate the test opens.
    private static func holdFirstWrite(_ fixture: ClientFixture) -> Gate {
        let gate = Gate()
        fixture.probe.answer { request in
            if request.method == .post, request.bodyRows.first?["id"] == 1 { await gate.wait() }
            return nil
        }
        return gate
    }

    @Test(
        "a keyless insert is never marked in flight with the writes before it, so a crash cannot make it look applied"
    )
    func keylessInsertRunsAlone() async throws {
        let fixture = try await ClientFixture(primaryKeys: ["tasks": ["id"]])
        try await fixture.client.insertOffline(["id": 1])
        _ = try await fixture.client.from("tasks").insert(["id": 2] as Row).execute()
        _ = try await fixture.client.from("tasks").insert(["title": "no key"] as Row).execute()
        _ = try await fixture.client.from("tasks").insert(["id": 3] as Row).execute()
        let gate = Self.holdFirstWrite(fixture)
        await fixture.client.enableNetwork()
        _ = try await fixture.probe.writes(atLeast: 1)
        let during = try await Self.stored(fixture.client)
        // The write under way is marked; the keyless insert, not sent yet, is not (the keyed one
        // before it may share the run's mark: sending it again cannot apply it twice).
        #expect(during.map(\.inFlight).first == true)
        #expect(during.map(\.inFlight)[2...] == [false, false])
        gate.open()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        // The keyed inserts before the keyless one share a request; it goes alone.
        let sent = fixture.writes.map { $0.bodyRows.map { $0["id"] ?? nil } }
        #expect(sent == [[1, 2], [nil], [3]])
        await fixture.client.close()
    }

    @Test("after a failure mid-run, the writes behind it stay queued with no attempt counted and no mark")
    func failureLeavesTheRestUntouched() async throws {
        let fixture = try await Self.offlineQueue(of: 4)
        let refusals = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post, request.bodyRows.first?["id"] == 2, refusals.take() else {
                return nil
            }
            return errorResponse(status: 503, code: "PGRST002", retryAfter: 1)
        }
        await fixture.client.enableNetwork()
        try await fixture.sleepers(atLeast: 1)
        try await eventually { (try? await Self.stored(fixture.client).count) == 3 }
        let after = try await Self.stored(fixture.client)
        #expect(after.map(\.id) == [2, 3, 4])
        // The refused write counts its attempt; its answer says it was not applied.
        #expect(after.map(\.attempts) == [1, 0, 0])
        #expect(after.map(\.inFlight) == [false, false, false])
        fixture.clock.advance(by: .seconds(1))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.map { $0.bodyRows.first?["id"] } == [1, 2, 2, 3, 4])
        await fixture.client.close()
    }

    @Test("a sign-out while a run is under way stops it: no later write of the run leaves with the old token")
    func signOutStopsTheRun() async throws {
        let fixture = try await Self.offlineQueue(of: 3)
        let gate = Self.holdFirstWrite(fixture)
        await fixture.client.enableNetwork()
        _ = try await fixture.probe.writes(atLeast: 1)
        try await fixture.client.signOut()
        gate.open()
        // The run gives back the attempts it did not send.
        try await eventually {
            guard let queued = try? await Self.stored(fixture.client) else { return false }
            return queued.count == 2 && queued.allSatisfy { !$0.inFlight && $0.attempts == 0 }
        }
        #expect(fixture.writes.count == 1)
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.map { $0.bodyRows.first?["id"] } == [1, 2, 3])
        #expect(fixture.writes.allSatisfy { $0.authorization == "Bearer token-user-1" })
        await fixture.client.close()
    }

    @Test("a store that cannot begin a run's attempts sends nothing and tries again on the schedule")
    func storeFailureWaitsForTheSchedule() async throws {
        let fixture = try await Self.offlineQueue(of: 2)
        // Every store job fails from now on.
        await fixture.client.store.close()
        await fixture.client.enableNetwork()
        // The pass waits on the retry schedule instead of picking the run again at once.
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.writes.isEmpty)
        #expect(fixture.clock.sleepLog.first == .milliseconds(300))
        await fixture.client.close()
    }
}
