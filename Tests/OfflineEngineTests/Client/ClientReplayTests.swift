import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

@Suite("Replay of the queue", .timeLimit(.minutes(10)))
struct ClientReplayTests {
    @Test("the queue replays oldest first, across tables, with the owner's token")
    func oldestFirst() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [], "projects": []])
        try await fixture.client.insertOffline(["id": 10], into: "projects")
        _ = try await fixture.client.from("tasks").insert(["id": 1, "project": 10] as Row).execute()
        _ = try await fixture.client.from("projects").delete().eq("id", value: 10).execute()
        await fixture.client.enableNetwork()
        let writes = try await fixture.probe.writes(atLeast: 3)
        #expect(writes.map(\.method) == [.post, .post, .delete])
        #expect(writes.map { $0.url.path.hasSuffix("/projects") } == [true, false, true])
        #expect(writes.allSatisfy { $0.authorization == "Bearer token-user-1" })
        await fixture.client.close()
    }

    @Test("a 503 with Retry-After stops the pass; the replay tries again after the server's wait")
    func retryAfterStopsPass() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        _ = try await fixture.client.from("tasks").insert(["id": 2] as Row).execute()
        let refusals = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post,
                refusals.take()
            else { return nil }
            return errorResponse(status: 503, code: "PGRST002", retryAfter: 2)
        }
        await fixture.client.enableNetwork()
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.writes.count == 1)
        #expect(fixture.clock.sleepLog == [.seconds(2)])
        fixture.clock.advance(by: .seconds(2))
        // The two inserts go as one request (a batch), refused and then sent again whole.
        let writes = try await fixture.probe.writes(atLeast: 2)
        #expect(writes.map { $0.bodyRows.map { $0["id"] } } == [[1, 2], [1, 2]])
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        await fixture.client.close()
    }

    @Test("a transport failure stops the pass and the replay retries after 300 ms, then 900 ms")
    func transportFailureRetriesOnSchedule() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        let failures = Turns(2)
        fixture.probe.answer { request in
            guard request.method == .post,
                failures.take()
            else { return nil }
            throw TransportError(kind: .connectionLost)
        }
        try await fixture.reconnectPastFirstRetry()
        _ = try await fixture.probe.writes(atLeast: 2)
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.clock.sleepLog == [.milliseconds(300), .milliseconds(900)])
        fixture.clock.advance(by: .milliseconds(900))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.count == 3)
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
        await fixture.client.close()
    }

    @Test("a 401 keeps the write until the session changes, then the replay goes on")
    func unauthorizedWaitsForSession() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        fixture.probe.answer { request in
            guard request.method == .post, request.authorization == "Bearer token-user-1" else { return nil }
            return errorResponse(status: 401, code: "PGRST301", message: "JWT expired")
        }
        await fixture.client.enableNetwork()
        _ = try await fixture.probe.writes(atLeast: 1)
        // Kept: not rejected, still pending, and not retried on the clock.
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 1)
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        fixture.clock.advance(by: .seconds(120))
        #expect(fixture.writes.count == 1)
        try await fixture.client.signIn(AuthSession(accessToken: "token-renewed", userID: "user-1"))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.map(\.authorization) == ["Bearer token-user-1", "Bearer token-renewed"])
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
        await fixture.client.close()
    }

    @Test(
        "a 400, 403, 409 or 422 rejects the write: it leaves the queue and the lists, is kept with the server's reason until dismissed, and later writes go on",
        arguments: [(400, "PGRST102"), (403, "42501"), (409, "23503"), (422, "PGRST999")])
    func rejection(status: Int, code: String) async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(storage: .directory(folder))
            let stream = fixture.client.from("tasks").select().snapshots()
            _ = try await firstValue(of: stream) { $0.refresh == .idle }
            try await fixture.client.insertOffline(["id": 1])
            _ = try await fixture.client.from("tasks").insert(["id": 2] as Row).execute()
            _ = try await firstValue(of: stream) { $0.column("id") == ["1", "2"] }
            fixture.probe.answer { request in
                guard request.method == HTTPMethod.post, request.bodyRows.first?["id"] == 1 else {
                    return nil
                }
                return errorResponse(
                    status: status, code: code, message: "refused by the server", details: "the details",
                    hint: "the hint")
            }
            await fixture.client.enableNetwork()
            let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
            #expect(rejected.count == 1)
            #expect(rejected.first?.rowIDs == ["1"])
            #expect(rejected.first?.error.status == status)
            #expect(rejected.first?.error.code == code)
            #expect(rejected.first?.error.message == "refused by the server")
            #expect(rejected.first?.error.details == "the details")
            #expect(rejected.first?.error.hint == "the hint")
            _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
            #expect(await fixture.server.rows(of: "tasks") == [["id": 2]])
            _ = try await firstValue(of: stream) { $0.column("id") == ["2"] }
            await fixture.client.close()

            let reopened = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: fixture.server, probe: ServerProbe())
            let kept = try await firstValue(of: reopened.client.rejectedMutations()) { _ in true }
            #expect(kept.map(\.id) == rejected.map(\.id))
            #expect(kept.first?.error.hint == "the hint")
            if let id = kept.first?.id { try await reopened.client.dismissRejected(id) }
            _ = try await firstValue(of: reopened.client.rejectedMutations()) { $0.isEmpty }
            await reopened.client.close()

            let again = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: fixture.server, probe: ServerProbe())
            #expect(try await firstValue(of: again.client.rejectedMutations()) { _ in true }.isEmpty)
            await again.client.close()
        }
    }

    @Test("a replayed insert whose first answer was lost is not applied twice and not reported rejected")
    func lostAnswerInsert() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1, "title": "a"])
        let lost = Turns(1)
        let server = fixture.server
        fixture.probe.answer { request in
            guard request.method == .post,
                lost.take()
            else {
                return nil
            }
            // The server applies the insert, and the answer never arrives.
            await server.setRows(await server.rows(of: "tasks") + request.bodyRows, of: "tasks")
            throw TransportError(kind: .connectionLost)
        }
        try await fixture.reconnectPastFirstRetry()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "title": "a"]])
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        #expect(fixture.writes.count == 2)
        await fixture.client.close()
    }

    @Test("a replayed write stays in the overlay until every cached list of its table is fetched after it")
    func replayedWriteRetires() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "done": false]]])
        _ = try await fixture.client.from("tasks").select().fetch()
        _ = try await fixture.client.from("tasks").select().eq("done", value: false).fetch()
        try await fixture.client.insertOffline(["id": 2, "done": false])
        // The server loses the row (say another device deleted it): only the overlay shows it now.
        fixture.probe.answer { request in
            request.method == HTTPMethod.post ? minimalWriteResponse() : nil
        }
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await fixture.client.store.replayLog.writes(table: "tasks").count == 1)
        let all = try await fixture.client.from("tasks").select().fetch()
        #expect(all.rows.map { $0["id"] } == [1])
        // The other list has not been fetched since: the write still shows there.
        await fixture.client.disableNetwork()
        let open = try await fixture.client.from("tasks").select().eq("done", value: false).fetch()
        #expect(open.rows.map { $0["id"] } == [1, 2])
        #expect(try await fixture.client.store.replayLog.writes(table: "tasks").count == 1)
        await fixture.client.enableNetwork()
        let fetched = try await fixture.client.from("tasks").select().eq("done", value: false).fetch()
        #expect(fetched.rows.map { $0["id"] } == [1])
        #expect(try await fixture.client.store.replayLog.writes(table: "tasks").isEmpty)
        await fixture.client.close()
    }

    @Test(
        "a replayed write answered 201 with an HTML page is not settled by it: it is sent again, not rejected"
    )
    func acceptedWithOddBody() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        let odd = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post, odd.take()
            else { return nil }
            return HTTPResponse(
                status: 201, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
        }
        await fixture.client.enableNetwork()
        try await eventually { [clock = fixture.clock] in
            if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(300)) }
            return fixture.writes.count >= 2
        }
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
        await fixture.client.close()
    }
}
