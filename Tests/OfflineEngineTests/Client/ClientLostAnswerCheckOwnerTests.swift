import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The read that settles a lost answer goes out under its write's ticket, as the write would: a
/// sign-out (or a clear) while it waits for its token keeps it from leaving (SPEC 3 and 4).
@Suite("A lost answer's checking read and its owner", .timeLimit(.minutes(10)))
struct ClientLostAnswerCheckOwnerTests {
    @Test("a checking read waiting for its token when the user signs out is not sent with that user's token")
    func checkNotSentAfterSignOut() async throws {
        let tokens = HeldTokens()
        let fixture = try await tokens.fixture()
        let client = fixture.client
        _ = try await firstValue(of: client.session) { $0 != .restoring }
        try await client.insertOffline(["id": 1, "title": "keyed"])
        // The server applies the insert and its answer is lost; sent again, it meets its own row
        // (23505), and the replay reads the key back, its token held.
        let server = fixture.server
        let gate = Gate()
        let first = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            guard first.take() else {
                tokens.hold(at: gate)
                return nil
            }
            await server.setRows([["id": 1, "title": "keyed"]], of: "tasks")
            throw TransportError(kind: .connectionLost)
        }
        await client.enableNetwork()
        _ = try await fixture.probe.writes(atLeast: 1)
        try await fixture.sleepers(atLeast: 1)
        fixture.clock.advance(by: .milliseconds(300))
        _ = try await gate.arrivals.values(atLeast: 1)
        #expect(fixture.writes.count == 2)
        try await client.signOut()
        tokens.hold(at: nil)
        let ended = Task { try await firstValue(of: client.events) { $0.kind == .replayEnded } }
        gate.open()
        _ = try await ended.value
        #expect(fixture.gets.isEmpty, "no request left with the signed-out user's token")
        await client.close()
    }
}
