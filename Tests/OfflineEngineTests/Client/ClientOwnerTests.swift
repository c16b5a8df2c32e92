import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

/// A write reaches the server only as its owner, and nothing of one user's is shown to another.
/// The store stall lets a sign-in or a clear run while the engine waits on the store between
/// picking a write and sending it, the window actor reentrancy opens.
@Suite("Writes go out only as their owner", .timeLimit(.minutes(10)))
struct ClientOwnerTests {
    private static let userA = ClientFixture.session("A")
    private static let userB = ClientFixture.session("B")

    /// Queues A's write offline, then lets the replay pick it and holds the store, so the
    /// replay waits between picking the write and sending it. Resume the returned stall.
    private static func replayWaitingOnTheStore(_ client: OfflineClient) async throws -> StoreStall {
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 1] as Row).execute()
        let stall = StoreStall(client.store)
        try await stall.engage()
        await client.enableNetwork()
        try await stall.waiting(atLeast: 1)
        return stall
    }

    /// Queues write 2 offline and replays it: once it is sent, the pass that held write 1 is over.
    private static func replayAnotherWrite(_ fixture: ClientFixture) async throws {
        try await fixture.client.insertOffline(["id": 2])
        await fixture.client.enableNetwork()
        _ = try await fixture.probe.requests(atLeast: 1) { $0.bodyRows.first?["id"] == 2 }
    }

    @Test("a replayed write carries its owner's session; a sign-in while it waits keeps it queued")
    func replayRacingSignIn() async throws {
        let fixture = try await ClientFixture(signedInAs: "A")
        let client = fixture.client
        // The replay has picked A's write and waits on the store to mark it in flight.
        let stall = try await Self.replayWaitingOnTheStore(client)
        async let signedIn: Void = client.signIn(Self.userB)
        try await stall.waiting(atLeast: 2)
        await stall.resume()
        try await signedIn
        try await Self.replayAnotherWrite(fixture)
        #expect(fixture.writes.allSatisfy { $0.bodyRows.first?["id"] != 1 })
        #expect(fixture.writes.allSatisfy { $0.authorization == "Bearer token-B" })
        try await client.signIn(Self.userA)
        let sent = try await fixture.probe.requests(atLeast: 1) { $0.bodyRows.first?["id"] == 1 }
        #expect(sent.map(\.authorization) == ["Bearer token-A"])
        await client.close()
    }

    @Test("a write sent at once carries its owner's session; a sign-in before it leaves queues it")
    func immediateSendRacingSignIn() async throws {
        let fixture = try await ClientFixture(signedInAs: "A")
        let client = fixture.client
        let stall = StoreStall(client.store)
        try await stall.engage()
        async let written = client.from("tasks").insert(["id": 1] as Row).execute().outcome
        // The write waits for its tick, read before it goes out.
        try await stall.waiting(atLeast: 1)
        async let signedIn: Void = client.signIn(Self.userB)
        try await stall.waiting(atLeast: 2)
        await stall.resume()
        try await signedIn
        let result = try await written
        guard case .queued(let pending) = result else {
            Issue.record("expected the write to stay queued, got \(result)")
            return
        }
        #expect(pending.ownerID == "A")
        #expect(fixture.writes.allSatisfy { $0.authorization == "Bearer token-A" })
        try await client.signIn(Self.userA)
        let sent = try await fixture.probe.writes(atLeast: 1)
        #expect(sent.map(\.authorization) == ["Bearer token-A"])
        await client.close()
    }

    @Test("a write the clear wiped while the replay waited to send it is never sent")
    func clearRacingReplay() async throws {
        let fixture = try await ClientFixture(signedInAs: "A")
        let client = fixture.client
        let stall = try await Self.replayWaitingOnTheStore(client)
        async let cleared: Void = client.clearLocalData()
        try await stall.waiting(atLeast: 2)
        await stall.resume()
        try await cleared
        try await client.signIn(Self.userA)
        try await Self.replayAnotherWrite(fixture)
        #expect(fixture.writes.map { $0.bodyRows.first?["id"] } == [2])
        #expect(await fixture.server.rows(of: "tasks") == [["id": 2]])
        await client.close()
    }

    /// How a clear meets a write of A's sent at once.
    enum ClearDuringSend: String, CaseIterable, Sendable {
        /// `clearLocalData()` while A is signed in.
        case everything
        /// A signs out, then `clearLocalData(user: "A")`.
        case signedOutUser
        /// A signs out, B signs in, then `clearLocalData(user: "A")`.
        case signedOutUserWithAnotherSignedIn
    }

    @Test(
        "a write cleared while it was being sent at once is not queued again when the send fails",
        arguments: ClearDuringSend.allCases)
    func clearDuringImmediateSend(_ clear: ClearDuringSend) async throws {
        let fixture = try await ClientFixture(signedInAs: "A")
        let client = fixture.client
        let gate = Gate()
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            await gate.wait()
            throw TransportError(kind: .connectionLost)
        }
        async let written = client.from("tasks").insert(["id": 1] as Row).execute().outcome
        _ = try await gate.arrivals.values(atLeast: 1)
        switch clear {
        case .everything:
            try await client.clearLocalData()
        case .signedOutUser, .signedOutUserWithAnotherSignedIn:
            try await client.signOut()
            if clear == .signedOutUserWithAnotherSignedIn { try await client.signIn(Self.userB) }
            try await client.clearLocalData(user: "A")
        }
        gate.open()
        let outcome: Result<WriteResult, any Error>
        do { outcome = .success(try await written) } catch { outcome = .failure(error) }
        #expect((try? outcome.get()) == nil)
        #expect(outcome.failureError as? ClientError == .cleared)
        #expect(try await client.store.queue.all().isEmpty)
        #expect(try await firstValue(of: client.pendingMutationCount()) { _ in true } == 0)
        await client.close()
    }

    @Test("another user never sees the replayed or rejected writes of the cache's previous owner")
    func replayedAndRejectedBelongToTheirOwner() async throws {
        // The cache handed over: B sees A's server rows, so the test can tell A's writes are not.
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]], signedInAs: "A") {
            $0.sharing = .handOver
        }
        let client = fixture.client
        let stream = client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle && $0.column("id") == ["1"] }
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 2] as Row).execute()
        _ = try await client.from("tasks").insert(["id": 3] as Row).execute()
        // The server takes row 2 (and then loses it), and refuses row 3; its reads fail from now
        // on, so the list is not fetched again when the queue drains: A's replayed write stays
        // laid over it.
        fixture.probe.answer { request in
            if request.method == .get { return errorResponse(status: 500, code: "XX000") }
            guard request.method == .post else { return nil }
            if request.bodyRows.contains(where: { $0["id"] == 3 }) {
                return errorResponse(status: 403, code: "42501")
            }
            return minimalWriteResponse()
        }
        await client.enableNetwork()
        _ = try await firstValue(of: client.rejectedMutations()) { $0.count == 1 }
        _ = try await firstValue(of: stream) { $0.column("id") == ["1", "2"] }
        await client.disableNetwork()
        try await client.signIn(Self.userB)
        // B sees the cached server rows (passed on, stale) but none of A's writes.
        let seenByB = try await firstValue(of: stream, within: 30) { !$0.column("id").contains("2") }
        #expect(seenByB.column("id") == ["1"])
        #expect(seenByB.isFromCache)
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.isEmpty)
        try await client.signIn(Self.userA)
        _ = try await firstValue(of: stream) { $0.column("id") == ["1", "2"] }
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.count == 1)
        await client.close()
    }
}
