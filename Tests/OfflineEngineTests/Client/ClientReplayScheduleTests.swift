import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// SPEC section 3: a transient failure stops the pass and the replay tries again on the refresh
/// schedule (300 ms, 900 ms, 2.4 s, 5 s, 15 s, then every 60 s); as the refresh counts failures
/// "in a row", a pass that got writes through starts the schedule again.
@Suite("The replay's retry schedule", .timeLimit(.minutes(10)))
struct ClientReplayScheduleTests {
    /// Answers the POSTs whose places (1-based) `failing` names with `failure` (a 503), the others
    /// as the server does.
    private static func failPosts(
        _ failing: Set<Int>, of fixture: ClientFixture,
        with failure: HTTPResponse = errorResponse(status: 503, code: "PGRST002")
    ) {
        let posts = Mutex(0)
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            let place = posts.withLock { count in
                count += 1
                return count
            }
            return failing.contains(place) ? failure : nil
        }
    }

    /// Advances the clock by each wait the replay sleeps, `count` times.
    private static func passWaits(_ count: Int, of fixture: ClientFixture) async throws {
        for passed in 0..<count {
            try await eventually { fixture.clock.sleepLog.count > passed && fixture.clock.sleeperCount > 0 }
            fixture.clock.advance(by: fixture.clock.sleepLog[passed])
        }
    }

    @Test("seven transient failures in a row wait 300 ms, 900 ms, 2.4 s, 5 s, 15 s, 60 s, 60 s")
    func wholeSchedule() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        Self.failPosts(Set(1...7), of: fixture)
        await fixture.client.enableNetwork()
        try await Self.passWaits(7, of: fixture)
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        let expected: [Duration] = [
            .milliseconds(300), .milliseconds(900), .milliseconds(2_400), .seconds(5), .seconds(15),
            .seconds(60),
            .seconds(60),
        ]
        #expect(fixture.clock.sleepLog == expected)
        #expect(fixture.writes.count == 8)
        await fixture.client.close()
    }

    @Test("a pass that got a run of writes through before failing starts the schedule again at 300 ms")
    func progressRestartsSchedule() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.disableNetwork()
        // A run holds at most 256 writes: the 257th goes in a second run of the same pass.
        for id in 1...(ReplayRun.limit + 1) {
            try await fixture.client.insertOffline(["id": .number(JSONNumber(id))])
        }
        // Three failures, then the first run's two batches go through, then the second run's fails.
        Self.failPosts([1, 2, 3, 6], of: fixture)
        await fixture.client.enableNetwork()
        try await Self.passWaits(4, of: fixture)
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        let expected: [Duration] = [
            .milliseconds(300), .milliseconds(900), .milliseconds(2_400), .milliseconds(300),
        ]
        #expect(fixture.clock.sleepLog == expected)
        #expect(await fixture.server.rows(of: "tasks").count == ReplayRun.limit + 1)
        await fixture.client.close()
    }

    /// What ends a replay's retry wait at once.
    enum WaitCut: String, CaseIterable, CustomTestStringConvertible {
        case networkBack = "the network comes back"
        case signIn = "the session settles (a user signs in)"

        var testDescription: String { rawValue }
    }

    @Test(
        "a replay's retry wait, a 429's Retry-After of 30 s honoured, is cut short when",
        arguments: WaitCut.allCases)
    func waitCutShort(_ cut: WaitCut) async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        Self.failPosts([1], of: fixture, with: errorResponse(status: 429, code: "", retryAfter: 30))
        await fixture.client.enableNetwork()
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.clock.sleepLog == [.seconds(30)])
        switch cut {
        case .networkBack:
            await fixture.client.disableNetwork()
            await fixture.client.enableNetwork()
        case .signIn:
            try await fixture.client.signIn(ClientFixture.session("user-1"))
        }
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.clock.now.offset == .zero, "no time passed")
        #expect(fixture.writes.count == 2)
        await fixture.client.close()
    }
}
