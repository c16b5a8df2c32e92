import Foundation
import Testing

@testable import OfflineEngine

/// Nothing is published before the commit it reflects, and a failed commit publishes nothing:
/// each test fails a commit on purpose (``CommitHooks``) and checks what readers were shown.
@Suite("Failed commits publish nothing", .timeLimit(.minutes(10)))
struct ClientFailedCommitTests {
    /// Fails the commit that would store a queued write.
    private static func failTheAppend(_ store: Store) {
        store.commitHooks.failCommits { connection throws(StoreError) in
            try connection.query("SELECT COUNT(*) FROM queue") { $0.integer(0) }.first ?? 0 > 0
        }
    }

    /// The count of queued writes shown now.
    private static func shownCount(_ client: OfflineClient) async throws -> Int {
        try await firstValue(of: client.pendingMutationCount()) { _ in true }
    }

    /// An offline client whose next append is held behind a stalled store and will fail, with
    /// the write that made it under way.
    private static func heldFailingAppend() async throws -> (
        OfflineClient, StoreStall, Task<WriteResponse<Void>, any Error>
    ) {
        let fixture = try await ClientFixture()
        let client = fixture.client
        await client.disableNetwork()
        let stall = StoreStall(client.store)
        try await stall.engage()
        Self.failTheAppend(client.store)
        let write = Task { try await client.from("tasks").insert(["id": 1] as Row).execute() }
        try await stall.waiting(atLeast: 1)
        return (client, stall, write)
    }

    @Test("a write is not counted while its append waits for the store, nor after the append failed")
    func failedAppendIsNeverCounted() async throws {
        let (client, stall, write) = try await Self.heldFailingAppend()
        #expect(try await Self.shownCount(client) == 0)
        await stall.resume()
        await #expect(throws: StoreError.full) { try await write.value }
        #expect(try await Self.shownCount(client) == 0)
        #expect(try await client.store.queue.all().isEmpty)
        // The next write is stored, and counted once it is.
        _ = try await client.from("tasks").insert(["id": 2] as Row).execute()
        #expect(try await Self.shownCount(client) == 1)
        await client.close()
    }

    @Test("queue facts published while an append waits for the store count only the writes stored")
    func factsPublishedMeanwhileCountStoredWritesOnly() async throws {
        let (client, stall, write) = try await Self.heldFailingAppend()
        // Clearing another user's data publishes the queue's facts before it waits for the store.
        let clear = Task { try await client.clearLocalData(user: "user-2") }
        try await stall.waiting(atLeast: 2)
        #expect(try await Self.shownCount(client) == 0)
        await stall.resume()
        await #expect(throws: StoreError.full) { try await write.value }
        _ = try? await clear.value
        #expect(try await Self.shownCount(client) == 0)
        await client.close()
    }

    @Test("an answer whose commit fails retires no replayed write: the device still lays it over the list")
    func failedAnswerCommitRetiresNothing() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let client = fixture.client
        _ = try await client.from("tasks").select().fetch()
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 2] as Row).execute()
        // The server accepts the insert and then loses the row (another device deleted it):
        // only the replay log lays it over the cached list.
        fixture.probe.answer { request in request.method == .post ? minimalWriteResponse() : nil }
        await client.enableNetwork()
        _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
        #expect(try await client.store.replayLog.writes(table: "tasks").count == 1)
        client.store.commitHooks.failCommits { connection throws(StoreError) in
            try connection.query("SELECT COUNT(*) FROM replay_log") { $0.integer(0) }.first == 0
        }
        let failed = try await client.from("tasks").select().fetch()
        // The store still holds the replayed write, so the device still shows it.
        #expect(try await client.store.replayLog.writes(table: "tasks").count == 1)
        #expect(failed.rows.map { $0["id"] } == [1, 2])
        let before = client.store.commitHooks.commits
        let fetched = try await client.from("tasks").select().fetch()
        #expect(fetched.rows.map { $0["id"] } == [1])
        #expect(try await client.store.replayLog.writes(table: "tasks").isEmpty)
        // One commit for the list, the retirement and the read noted (the eviction order: a
        // saved list counts as read); the request's tick costs none.
        #expect(client.store.commitHooks.commits - before == 1)
        await client.close()
    }

    @Test(
        "a sign-in whose commit fails still shows the new user's queue: the previous user's writes are not counted as theirs"
    )
    func failedSignInShowsNewUsersQueue() async throws {
        let fixture = try await ClientFixture(signedInAs: "A")
        let client = fixture.client
        await client.disableNetwork()
        _ = try await client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(try await Self.shownCount(client) == 1)
        client.store.commitHooks.failCommits()
        await #expect(throws: StoreError.full) { try await client.signIn(ClientFixture.session("B")) }
        #expect(try await firstValue(of: client.session) { _ in true }.userID == "B")
        #expect(try await Self.shownCount(client) == 0, "A's write is not B's")
        await client.close()
    }
}
