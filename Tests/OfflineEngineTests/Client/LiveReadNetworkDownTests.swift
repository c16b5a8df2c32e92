import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The refresh lifecycle's Paused: "waiting for the network reads as Paused, never as a failure,
/// and sends nothing". A refresh checks the network when its attempt starts; the request leaves
/// later, once the token provider answers, and the network may have gone down in between.
@Suite("Live reads when the network goes down during an attempt", .timeLimit(.minutes(10)))
struct LiveReadNetworkDownTests {
    @Test("a refresh whose token is being asked for when the network goes down sends nothing, and pauses")
    func attemptWaitingForItsTokenSendsNothingOffline() async throws {
        let tokens = HeldTokens()
        let fixture = try await tokens.fixture()
        let client = fixture.client
        // The sign-in's own ask for a token is over once a read has been answered.
        _ = try await firstValue(of: client.session) { $0 != .restoring }
        _ = try await client.from("tasks").select().fetch()
        let sentBefore = fixture.gets.count
        let gate = Gate()
        tokens.hold(at: gate)
        let list = LiveList(client.from("tasks").select())
        defer { list.stop() }
        // The attempt started with the network up and waits for its token.
        _ = try await gate.arrivals.values(atLeast: 1)
        await client.disableNetwork()
        tokens.hold(at: nil)
        gate.open()
        _ = try await list.first(within: 10) { $0.refresh == .paused }
        #expect(fixture.gets.count == sentBefore, "no request left while the network was down")
        // Back online, the refresh asks.
        await client.enableNetwork()
        _ = try await list.first { $0.refresh == .idle }
        #expect(fixture.gets.count == sentBefore + 1)
    }
}
