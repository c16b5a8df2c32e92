import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// Changes from other devices against requests in flight, and the gaps of a feed: no change is
/// hidden by an older answer, a list settles under a stream of changes, and no gap is silent
/// (issue 31, points 2 and 3).
@Suite("Change feed: answers in flight and gaps", .timeLimit(.minutes(10)))
struct ClientChangeFeedGapTests {
    private static let rows: [Row] = [["id": 1, "title": "a"], ["id": 2, "title": "b"]]

    /// Runs `body` while following the feed, once a live read of all of `tasks` is idle.
    private static func followingIdleRead(
        _ body: (_ fixture: ClientFixture, _ feed: TestFeed, _ read: LiveList) async throws -> Void
    ) async throws {
        try await followingTasks(rows) { fixture, feed in
            let read = LiveList(fixture.client.from("tasks").select())
            defer { read.stop() }
            _ = try await read.first { $0.refresh == .idle }
            try await body(fixture, feed, read)
        }
    }

    @Test("a change arriving while a GET is in flight still shows after its answer, with no second fetch")
    func changeDuringGet() async throws {
        try await followingTasks(Self.rows) { fixture, feed in
            feed.send(.subscribed)
            _ = try await firstValue(of: fixture.client.syncStatus) { $0.disconnectedFeeds.isEmpty }
            let read = LiveList(fixture.client.from("tasks").select())
            defer { read.stop() }
            _ = try await read.first { $0.refresh == .idle && $0.column("id") == ["1", "2"] }
            let gets = fixture.gets.count
            // The next GET is answered with the rows as they were when it left.
            let gate = Gate()
            fixture.probe.answer { request in
                guard request.method == .get else { return nil }
                await gate.wait()
                return jsonResponse(Self.rows)
            }
            try await fixture.client.refreshLiveReads()
            _ = try await fixture.probe.gets(atLeast: gets + 1)
            await fixture.server.setRows(Self.rows + [["id": 3, "title": "c"]], of: "tasks")
            feed.send(.insert(["id": 3, "title": "c"], into: "tasks"))
            _ = try await read.first { $0.column("id") == ["1", "2", "3"] }
            gate.open()
            let settled = try await read.first { $0.refresh == .idle && $0.fetchedAt != nil }
            #expect(settled.column("id") == ["1", "2", "3"])
            #expect(fixture.gets.count == gets + 1)
        }
    }

    @Test("with a change every 10 ms and each GET taking 50 ms, the list still reaches Idle")
    func settlesUnderSteadyChanges() async throws {
        try await followingTasks(Self.rows) { fixture, feed in
            feed.send(.subscribed)
            fixture.probe.answer { request in
                if request.method == .get { try await Task.sleep(for: .milliseconds(50)) }
                return nil
            }
            let read = LiveList(fixture.client.from("tasks").select())
            defer { read.stop() }
            let changes = Task {
                var version = 0
                while !Task.isCancelled {
                    version += 1
                    let row: Row = ["id": 1, "title": .string("v\(version)")]
                    await fixture.server.setRows([row, Self.rows[1]], of: "tasks")
                    feed.send(.update(row, old: ["id": 1], in: "tasks"))
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            defer { changes.cancel() }
            // Wait until the stream of changes is under way, then ask again while it runs: once that
            // request has left, the next Idle is its answer, taken with the changes laid over it.
            _ = try await read.first { $0.column("title").first?.hasPrefix("v") == true }
            let gets = fixture.gets.count
            try await fixture.client.refreshLiveReads()
            _ = try await fixture.probe.gets(atLeast: gets + 1)
            let idle = try await read.first(after: read.count, within: 20) { $0.refresh == .idle }
            #expect(idle.column("id") == ["1", "2"])
            changes.cancel()
        }
    }

    @Test("a change sent before \"subscribed\" is held and laid when it comes, not lost")
    func heldUntilSubscribed() async throws {
        try await Self.followingIdleRead { fixture, feed, read in
            await fixture.server.setRows(Self.rows + [["id": 3, "title": "c"]], of: "tasks")
            feed.send(.insert(["id": 3, "title": "c"], into: "tasks"))
            // The fetch that "subscribed" starts is held: the change shows before it answers.
            let gate = fixture.probe.holdReads()
            feed.send(.subscribed)
            _ = try await read.first { $0.column("id") == ["1", "2", "3"] }
            gate.open()
        }
    }

    @Test("every \"subscribed\", the first and after a reconnect, fetches the table's live lists again")
    func subscribedFetchesAgain() async throws {
        try await Self.followingIdleRead { fixture, feed, read in
            feed.send(.subscribed)
            _ = try await fixture.probe.gets(atLeast: 2)
            // A change made while the feed is down never comes: the reconnect's fetch shows it.
            feed.send(.disconnected)
            await fixture.server.setRows([Self.rows[0]], of: "tasks")
            feed.send(.subscribed)
            _ = try await fixture.probe.gets(atLeast: 3)
            _ = try await read.first { $0.column("id") == ["1"] && $0.refresh == .idle }
        }
    }

    @Test("while a feed is down, the sync status names its table; subscribed or ended, it does not")
    func disconnectedShows() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let feed = TestFeed()
        async let follows: Void = fixture.client.follow(changes: feed.events, tables: ["tasks"])
        let status = fixture.client.syncStatus
        _ = try await firstValue(of: status) { $0.disconnectedFeeds == ["tasks"] }
        feed.send(.subscribed)
        _ = try await firstValue(of: status) { $0.disconnectedFeeds.isEmpty }
        feed.send(.disconnected)
        _ = try await firstValue(of: status) { $0.disconnectedFeeds == ["tasks"] }
        feed.finish()
        try await follows
        _ = try await firstValue(of: status) { $0.disconnectedFeeds.isEmpty }
        await fixture.client.close()
    }
}
