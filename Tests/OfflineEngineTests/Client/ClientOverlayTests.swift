import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

@Suite("Overlay through the client", .timeLimit(.minutes(10)))
struct ClientOverlayTests {
    static let rows: [Row] = [["id": 1, "done": false], ["id": 2, "done": true]]

    /// Brings three lists of tasks (all, open, done) to Idle, then disables the network.
    static func threeLists(_ fixture: ClientFixture) async throws -> [AsyncThrowingStream<
        QuerySnapshot, Error
    >] {
        let streams = [
            fixture.client.from("tasks").select().snapshots(),
            fixture.client.from("tasks").select().eq("done", value: false).snapshots(),
            fixture.client.from("tasks").select().eq("done", value: true).snapshots(),
        ]
        for stream in streams { _ = try await firstValue(of: stream) { $0.refresh == .idle } }
        await fixture.client.disableNetwork()
        return streams
    }

    @Test(
        "a queued insert shows after the rows of every list whose filters admit it, and not where eq excludes it"
    )
    func queuedInsert() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let streams = try await Self.threeLists(fixture)
        _ = try await fixture.client.from("tasks").insert(["id": 3, "done": false] as Row).execute()
        let all = try await firstValue(of: streams[0]) { $0.column("id") == ["1", "2", "3"] }
        #expect(all.hasPendingMutations)
        _ = try await firstValue(of: streams[1]) { $0.column("id") == ["1", "3"] }
        let done = try await fixture.client.from("tasks").select().eq("done", value: true).fetch()
        #expect(done.rows.map { $0["id"] } == [2])
        await fixture.client.close()
    }

    @Test("a queued update moves a row out of an eq(done, false) list and into eq(done, true)")
    func queuedUpdateMovesRow() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let streams = try await Self.threeLists(fixture)
        _ = try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 1).execute()
        _ = try await firstValue(of: streams[1]) { $0.column("id") == [] && $0.hasPendingMutations }
        _ = try await firstValue(of: streams[2]) { $0.column("id") == ["2", "1"] }
        _ = try await firstValue(of: streams[0]) { $0.column("done") == ["true", "true"] }
        await fixture.client.close()
    }

    @Test("a queued delete removes its row from every list")
    func queuedDelete() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let streams = try await Self.threeLists(fixture)
        _ = try await fixture.client.from("tasks").delete().eq("id", value: 2).execute()
        _ = try await firstValue(of: streams[0]) { $0.column("id") == ["1"] }
        _ = try await firstValue(of: streams[2]) { $0.column("id") == [] }
        await fixture.client.close()
    }

    @Test("an online write sent at once is patched into cached lists with the rows the server returned")
    func onlineWritePatched() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let streams = try await Self.threeLists(fixture)
        await fixture.client.enableNetwork()
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            let rows = request.bodyRows.map { $0.merging(["created_at": "by-server"]) }
            return jsonResponse(rows, status: 201)
        }
        let result = try await fixture.client.from("tasks").insert(["id": 3, "done": false] as Row).select()
            .execute()
        #expect(result.rows.first?["created_at"] == "by-server")
        let all = try await firstValue(of: streams[0]) { $0.column("id") == ["1", "2", "3"] }
        #expect(all.result?.rows.last?["created_at"] == "by-server")
        #expect(!all.hasPendingMutations)
        _ = try await firstValue(of: streams[1]) { $0.column("created_at") == ["-", "by-server"] }
        let done = await fixture.current(fixture.client.from("tasks").select().eq("done", value: true))
        #expect(done?.column("id") == ["2"])
        await fixture.client.close()
    }

    @Test("another user's queued writes are never laid over or replayed; they replay when that user is back")
    func otherUsersWrites() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        try await fixture.client.insertOffline(["id": 3, "done": false])
        try await fixture.client.signIn(ClientFixture.session("user-2"))
        await fixture.client.enableNetwork()
        let stream = fixture.client.from("tasks").select().snapshots()
        let snapshot = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(snapshot.column("id") == ["1", "2"])
        #expect(!snapshot.hasPendingMutations)
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 0)
        #expect(fixture.writes.isEmpty)
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        let writes = try await fixture.probe.writes(atLeast: 1)
        #expect(writes.map(\.authorization) == ["Bearer token-user-1"])
        _ = try await firstValue(of: stream) { $0.column("id") == ["1", "2", "3"] }
        await fixture.client.close()
    }

    @Test("owner-less writes made signed out are claimed by the first user who signs in")
    func ownerlessClaimed() async throws {
        let fixture = try await ClientFixture(signedInAs: nil)
        try await fixture.client.insertOffline(["id": 1])
        let before = try await firstValue(of: fixture.client.pendingMutations(table: "tasks")) { !$0.isEmpty }
        #expect(before.first?.ownerID == nil)
        try await fixture.client.signIn(ClientFixture.session("user-2"))
        let after = try await firstValue(of: fixture.client.pendingMutations(table: "tasks")) {
            $0.first?.ownerID == "user-2"
        }
        #expect(after.map(\.rowIDs) == [["1"]])
        await fixture.client.enableNetwork()
        let writes = try await fixture.probe.writes(atLeast: 1)
        #expect(writes.map(\.authorization) == ["Bearer token-user-2"])
        // Another user signing in later does not get them.
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        await fixture.client.close()
    }

    @Test("pending writes and their count get a new value on every enqueue, replay and rejection")
    func pendingStreams() async throws {
        let fixture = try await ClientFixture()
        let pending = fixture.client.pendingMutations(table: "tasks")
        let counts = fixture.client.pendingMutationCount()
        #expect(try await firstValue(of: pending) { _ in true }.isEmpty)
        try await fixture.client.insertOffline(["id": 1])
        #expect(try await firstValue(of: pending) { !$0.isEmpty }.map(\.rowIDs) == [["1"]])
        _ = try await firstValue(of: counts) { $0 == 1 }
        _ = try await fixture.client.from("tasks").update(["done": true] as Row).eq("id", value: 2).execute()
        #expect(try await firstValue(of: pending) { $0.count == 2 }.map(\.rowIDs) == [["1"], ["2"]])
        _ = try await firstValue(of: counts) { $0 == 2 }
        let gate = Gate()
        fixture.probe.answer { request in
            guard request.method == .patch else { return nil }
            await gate.wait()
            return errorResponse(status: 422, code: "22P02")
        }
        await fixture.client.enableNetwork()
        #expect(try await firstValue(of: pending) { $0.count < 2 }.map(\.rowIDs) == [["2"]])
        _ = try await firstValue(of: counts) { $0 == 1 }
        gate.open()
        #expect(try await firstValue(of: pending) { $0.isEmpty }.isEmpty)
        _ = try await firstValue(of: counts) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.count == 1)
        await fixture.client.close()
    }

    @Test("an online write whose effect the cache cannot work out marks the lists stale and they fetch again")
    func unworkableWriteMarksStale() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let stream = fixture.client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        let before = fixture.gets.count
        _ = try await fixture.client.from("tasks").update(["done": true] as Row).lt("id", value: 5).execute()
        _ = try await firstValue(of: stream) { $0.column("done") == ["true", "true"] && $0.refresh == .idle }
        #expect(fixture.gets.count == before + 1)
        await fixture.client.close()
    }

    /// Online writes the cache cannot lay into a list, each sent at once.
    static let unworkableWrites: [(name: String, write: @Sendable (OfflineClient) async throws -> Void)] = [
        ("a delete filtered by lt", { _ = try await $0.from("tasks").delete().lt("id", value: 2).execute() }),
        (
            "an insert into another schema",
            { _ = try await $0.from("tasks", schema: "private").insert(["id": 3] as Row).execute() }
        ),
    ]

    @Test(
        "an online delete filtered by what the cache cannot evaluate, or a write to another schema: the live reads fetch again",
        arguments: unworkableWrites.indices)
    func unworkableWritesFetchAgain(_ index: Int) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let stream = fixture.client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        let before = fixture.gets.count
        try await Self.unworkableWrites[index].write(fixture.client)
        try await eventually { fixture.gets.count == before + 1 }
        _ = try await firstValue(of: stream) { $0.refresh == .idle && !$0.hasPendingMutations }
        await fixture.client.close()
    }
}
