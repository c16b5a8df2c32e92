import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

@Suite("Writes through the client", .timeLimit(.minutes(10)))
struct ClientWriteTests {
    /// Runs `body` with a client on a new store folder whose insert of task 1, made with the
    /// network down, is queued.
    private static func withQueuedInsertOnDisk(
        _ body: (_ folder: URL, _ fixture: ClientFixture, _ pending: PendingMutation) async throws -> Void
    ) async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(storage: .directory(folder))
            guard let pending = try await fixture.client.queuedInsertOffline(["id": 1] as Row) else { return }
            try await body(folder, fixture, pending)
        }
    }

    @Test("an offline-first write is sent at once when online with nothing queued")
    func sentAtOnce() async throws {
        let fixture = try await ClientFixture()
        let result = try await fixture.client.from("tasks").insert(["id": 1, "title": "a"] as Row).select()
            .execute().outcome
        #expect(result == .sent([["id": 1, "title": "a"]]))
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "title": "a"]])
        #expect(fixture.writes.count == 1)
        #expect(try await fixture.client.store.queue.all().isEmpty)
        await fixture.client.close()
    }

    @Test("a write made while the network is disabled is queued, and survives closing the client")
    func queuedWhenDisabledAndDurable() async throws {
        try await Self.withQueuedInsertOnDisk { folder, fixture, pending in
            #expect(pending.rowIDs == ["1"])
            #expect(fixture.writes.isEmpty)
            await fixture.client.close()
            let store = try Store.open(.directory(folder))
            let queued = try await store.queue.all()
            #expect(queued.map(\.mutation.id) == [pending.id])
            #expect(queued.first?.mutation.ownerID == "user-1")
            await store.close()
        }
    }

    @Test("a later write never overtakes an earlier queued one: all replay in the order they were made")
    func queuedWritesKeepOrder() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.disableNetwork()
        for id in 1...3 {
            _ = try await fixture.client.from("tasks").insert(["id": .number(JSONNumber(id)), "n": 0] as Row)
                .execute()
        }
        _ = try await fixture.client.from("tasks").update(["n": 1] as Row).eq("id", value: 1).execute()
        await fixture.client.enableNetwork()
        // Written while the queue still holds earlier writes: queued behind them, not sent at once.
        let late = try await fixture.client.from("tasks").insert(["id": 4, "n": 0] as Row).execute().outcome
        if case .sent = late {
            #expect(fixture.writes.count == 3)
        }
        // The three queued inserts go as one request (a batch), before the update.
        let writes = try await fixture.probe.writes(atLeast: 3)
        #expect(writes.map(\.method) == [.post, .patch, .post])
        #expect(
            writes.filter { $0.method == .post }.map { $0.bodyRows.map { $0["id"] } } == [[1, 2, 3], [4]])
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(await fixture.server.rows(of: "tasks").map { $0["n"] } == [1, 0, 0, 0])
        await fixture.client.close()
    }

    @Test("a transport failure or a 503 while sending at once queues the write")
    func failedSendQueues() async throws {
        for failure in [TransportError(kind: .connectionLost), nil] {
            let fixture = try await ClientFixture()
            fixture.probe.answer { request in
                guard request.method == .post else { return nil }
                if let failure { throw failure }
                return errorResponse(status: 503, code: "PGRST002")
            }
            let result = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute().outcome
            guard case .queued = result else {
                Issue.record("expected a queued write, got \(result)")
                return
            }
            // The replay retries on the schedule; once the server takes it, it is applied once.
            try await fixture.sleepers(atLeast: 1)
            fixture.probe.answer(with: nil)
            fixture.clock.advance(by: .seconds(1))
            _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
            #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
            await fixture.client.close()
        }
    }

    @Test("an online-only write throws offline when the network is down and is not patched into the cache")
    func onlineOnly() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let stream = fixture.client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        await fixture.client.disableNetwork()
        await #expect(throws: ClientError.offline) {
            _ = try await fixture.client.from("tasks").update(["title": "x"] as Row).eq("id", value: 1)
                .execute(policy: .onlineOnly)
        }
        #expect(fixture.writes.isEmpty)
        #expect(try await fixture.client.store.queue.all().isEmpty)
        await fixture.client.enableNetwork()
        let result = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row)
            .execute(policy: .onlineOnly).outcome
        #expect(result == .sent([]))
        #expect(await fixture.server.rows(of: "tasks").count == 2)
        let lists = try await fixture.client.store.lists(of: "user-1").all(table: "tasks")
        #expect(lists.map { $0.rows.map { $0["title"] } } == [["a"]])
        #expect(await fixture.current(fixture.client.from("tasks").select())?.column("title") == ["a"])
        await fixture.client.close()
    }

    @Test("execute of a queued write returns only once the write is on disk")
    func queuedIsDurableOnReturn() async throws {
        try await Self.withQueuedInsertOnDisk { folder, fixture, pending in
            // The store resumes an append only after its transaction committed; reading back through
            // the same store finds it. (A second store on the folder is refused while the client
            // holds it, so two engines can never replay one queue.)
            #expect(try await fixture.client.store.queue.all().map(\.mutation.id) == [pending.id])
            #expect(throws: StoreError.inUse) { try Store.open(.directory(folder)) }
            await fixture.client.close()
            let reopened = try Store.open(.directory(folder))
            #expect(try await reopened.queue.all().map(\.mutation.id) == [pending.id])
            await reopened.close()
        }
    }

    @Test(
        "a write sent at once whose accepted answer cannot be read is kept, and its replay finds it applied"
    )
    func acceptedButUnreadable() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let stream = fixture.client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        fixture.applyingFirstInsert {
            HTTPResponse(status: 201, headers: ["Content-Type": "application/json"], body: Data("[{".utf8))
        }
        let result = try await fixture.client.from("tasks").insert(["id": 2] as Row).select().execute()
            .outcome
        guard case .queued = result else {
            Issue.record("expected the write to be kept in the queue, got \(result)")
            return
        }
        _ = try await firstValue(of: stream) { $0.column("id") == ["1", "2"] }
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1], ["id": 2]])
        await fixture.client.close()
    }
}
