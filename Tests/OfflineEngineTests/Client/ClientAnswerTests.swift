import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

/// No answer loses a write: a 2xx settles a write only when it is PostgREST's answer, a lost
/// answer is neither applied twice nor reported rejected, and what can never be sent is refused
/// before it is queued.
@Suite("No answer loses a write", .timeLimit(.minutes(10)))
struct ClientAnswerTests {
    /// Answers the first `count` POSTs with `response`, then lets the server answer.
    private static func answerFirstPosts(
        _ count: Int, of fixture: ClientFixture, with response: HTTPResponse
    ) {
        let left = Turns(count)
        fixture.probe.answer { request in
            guard request.method == .post, left.take()
            else { return nil }
            return response
        }
    }

    @Test("a write sent at once whose answer cannot be read is kept in the queue, not assumed applied")
    func immediateKeepsUnreadableAnswer() async throws {
        let fixture = try await ClientFixture()
        Self.answerFirstPosts(
            1, of: fixture,
            with: HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
        )
        let result = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute().outcome
        guard case .queued = result else {
            Issue.record("expected the write to be kept in the queue, got \(result)")
            return
        }
        // Queued, it replays at once; the server applies it then.
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
        await fixture.client.close()
    }

    @Test(
        "a write sent at once whose answer was lost is checked, not rejected, when its replay meets its row")
    func lostAnswerOfImmediateSend() async throws {
        let fixture = try await ClientFixture()
        fixture.applyingFirstInsert { throw TransportError(kind: .connectionLost) }
        let result = try await fixture.client.from("tasks").insert(["id": 1, "title": "a"] as Row).execute()
            .outcome
        guard case .queued = result else {
            Issue.record("expected the write to be queued after its answer was lost, got \(result)")
            return
        }
        // Its replay meets its own row (409), which the check finds holding what was sent.
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "title": "a"]])
        await fixture.client.close()
    }

    @Test("a checking read that fails is a transient failure, never 'not applied'")
    func failedCheckIsTransient() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        try await fixture.client.insertOffline(["id": 1, "title": "a"])
        // An earlier attempt whose answer was lost (the row above is its effect).
        let failedChecks = Turns(1)
        let interrupted = Turns(1)
        fixture.probe.answer { request in
            if request.method == .post, interrupted.take() {
                throw TransportError(kind: .connectionLost)
            }
            if request.method == .get, failedChecks.take() {
                throw TransportError(kind: .timedOut)
            }
            return nil
        }
        try await fixture.reconnectPastFirstRetry()
        // The replay meets its row; the check fails: try again later, not rejected.
        _ = try await fixture.probe.gets(atLeast: 1)
        try await fixture.sleepers(atLeast: 1)
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        fixture.clock.advance(by: .milliseconds(900))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }

    @Test("a lost answer's check compares values with PostgreSQL's typed equality (…Z equals …+00:00)")
    func checkUsesTypedEquality() async throws {
        let fixture = try await ClientFixture.withQueuedInsert([
            "id": 1, "due": "2024-01-15T12:00:00Z", "n": 1.50,
        ])
        let interrupted = Turns(1)
        fixture.probe.answer { request in
            if request.method == .post, interrupted.take() {
                throw TransportError(kind: .connectionLost)
            }
            if request.method == .post { return errorResponse(status: 409, code: "23505") }
            // The row as PostgreSQL renders it back.
            return jsonResponse([["id": 1, "due": "2024-01-15T12:00:00+00:00", "n": 1.5]])
        }
        try await fixture.reconnectPastFirstRetry()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }

    @Test(
        "a lost answer's replay that meets a row provably different from what was sent is rejected with 23505, the server's row kept"
    )
    func lostAnswerMeetsOtherRow() async throws {
        // Another device's row holds the key; this device's first attempt got no answer.
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "theirs"]]])
        try await fixture.client.insertOffline(["id": 1, "title": "mine"])
        let interrupted = Turns(1)
        fixture.probe.answer { request in
            if request.method == .post, interrupted.take() { throw TransportError(kind: .connectionLost) }
            return nil
        }
        try await fixture.reconnectPastFirstRetry()
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(rejected.map(\.error.code) == ["23505"])
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 0)
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "title": "theirs"]])
        await fixture.client.close()
    }

    @Test("an insert without its key values whose attempt was interrupted is not sent again blindly")
    func keylessInsertIsNotResent() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["title": "no id"])
        fixture.applyingFirstInsert { throw TransportError(kind: .connectionLost) }
        try await fixture.reconnectPastFirstRetry()
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(rejected.first?.mayHaveBeenApplied == true)
        #expect(rejected.first?.error.message.contains("may") == true)
        #expect(await fixture.server.rows(of: "tasks") == [["title": "no id"]])
        #expect(fixture.writes.count == 1)
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        await fixture.client.close()
    }

    @Test("a replay honours Retry-After only up to 30 s")
    func retryAfterIsCapped() async throws {
        let fixture = try await ClientFixture.withQueuedInsert(["id": 1])
        Self.answerFirstPosts(
            1, of: fixture, with: errorResponse(status: 503, code: "PGRST002", retryAfter: 999_999_999))
        await fixture.client.enableNetwork()
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.clock.sleepLog == [.seconds(30)])
        fixture.clock.advance(by: .seconds(30))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        await fixture.client.close()
    }

    @Test(
        "a write the request builder refuses is refused at execute(), online or offline, and never queued",
        arguments: [false, true])
    func unsendableWriteIsRefused(offline: Bool) async throws {
        let fixture = try await ClientFixture()
        if offline { await fixture.client.disableNetwork() }
        await #expect(throws: QueryError.self) {
            _ = try await fixture.client.from("bad table").insert(["id": 1] as Row).execute()
        }
        await #expect(throws: QueryError.self) {
            _ = try await fixture.client.from("tasks").update(["done": true] as Row)
                .filter("title", operator: "eq", value: "a\u{0}b").execute()
        }
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 0)
        #expect(try await fixture.client.store.queue.all().isEmpty)
        #expect(fixture.writes.isEmpty)
        await fixture.client.close()
    }
}
