import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Reference, refresh lifecycle: "Waiting for the network or for the session reads as waiting,
/// never as a failure." A read whose session gives no token waits for the session.
@Suite("A live read waiting for a usable session", .timeLimit(.minutes(10)))
struct ClientSessionWaitRefreshTests {
    @Test(
        "an expired session and no token provider: Refreshing through the whole schedule, never Stalled; a new session ends it"
    )
    func expiredSessionWaits() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]], signedInAs: nil)
        let expired = AuthSession(
            accessToken: "old", userID: "user-1", expiresAt: Date(timeIntervalSinceNow: -60))
        try await fixture.client.signIn(expired)
        let recorder = SnapshotRecorder(fixture.client.from("tasks").select().snapshots()) { $0.refresh }
        for delay in [
            Duration.milliseconds(300), .milliseconds(900), .milliseconds(2_400), .seconds(5), .seconds(15),
        ] {
            try await fixture.sleepers(atLeast: 1)
            fixture.clock.advance(by: delay)
        }
        try await fixture.sleepers(atLeast: 1)
        #expect(
            recorder.log.values.map(\.refresh).allSatisfy { $0 == .refreshing },
            "\(recorder.log.values.map(\.refresh))")
        #expect(fixture.gets.isEmpty, "no request goes with an expired token")
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        try await recorder.expect([.refreshing, .idle])
        await fixture.client.close()
    }
}
