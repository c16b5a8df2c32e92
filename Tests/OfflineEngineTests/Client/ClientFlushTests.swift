import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `flush(within:)`: as much of the user's queue as goes before a deadline on the client's
/// clock, and what remains; a write in flight at the deadline settles later, once.
@Suite("Flushing the queue before a deadline", .timeLimit(.minutes(10)))
struct ClientFlushTests {
    private static func task(_ id: Int) -> Row {
        ["id": .number(JSONNumber(id)), "title": .string("task \(id)")]
    }

    /// Starts a flush while offline (it has seen the queue once it waits on the clock), then
    /// brings the network back: what the replay then does happens during the flush.
    private static func flushWhileTheNetworkReturns(_ fixture: ClientFixture) async throws -> FlushResult {
        let client = fixture.client
        let flushing = Task { try await client.flush(within: .seconds(10)) }
        try await fixture.sleepers(atLeast: 1)
        await client.enableNetwork()
        return try await withTimeout(30) { try await flushing.value }
    }

    @Test("a queue that drains before the deadline: every write accepted, nothing remains")
    func drains() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.disableNetwork()
        for id in 1...3 { try await fixture.client.from("tasks").insert(Self.task(id)).execute() }
        let result = try await Self.flushWhileTheNetworkReturns(fixture)
        #expect(result.isComplete && result.remaining == 0 && result.rejected.isEmpty)
        #expect(result.accepted.count == 3)
        #expect(await fixture.server.rows(of: "tasks").count == 3)
        await fixture.client.close()
    }

    @Test(
        "at the deadline the flush returns what was sent and what remains; the write in flight then settles once"
    )
    func deadline() async throws {
        let server = InMemoryPostgREST(tables: ["tasks": []])
        let transport = RecordingTransport(wrapping: server)
        let fixture = try await ClientFixture(server: server) { configuration in
            configuration.transport = transport
            configuration.replayBatching = .off
        }
        await fixture.client.disableNetwork()
        for id in 1...3 { try await fixture.client.from("tasks").insert(Self.task(id)).execute() }
        // Every request takes a second on the client's clock.
        transport.setDelay(.seconds(1), on: fixture.clock)
        await fixture.client.enableNetwork()
        let client = fixture.client
        let flushing = Task { try await client.flush(within: .milliseconds(1_500)) }
        let isWrite: @Sendable (HTTPRequest) -> Bool = { $0.method == .post }
        _ = try await transport.requests(atLeast: 1, where: isWrite, timeout: .seconds(30))
        try await fixture.sleepers(atLeast: 2)  // the flush's deadline and the first request
        fixture.clock.advance(by: .seconds(1))
        _ = try await transport.requests(atLeast: 2, where: isWrite, timeout: .seconds(30))
        // The first answer settled (its write left the queue) before the deadline comes.
        _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 2 }
        try await fixture.sleepers(atLeast: 2)  // the deadline and the second request
        fixture.clock.advance(by: .milliseconds(500))
        let result = try await withTimeout(30) { try await flushing.value }
        #expect(result.accepted.count == 1 && result.remaining == 2 && !result.isComplete, "\(result)")
        // The second write was in flight at the deadline: it settles as its answer comes.
        fixture.clock.advance(by: .seconds(5))
        _ = try await firstValue(of: client.pendingMutationCount()) { count in
            if count > 0 { fixture.clock.advance(by: .seconds(1)) }
            return count == 0
        }
        #expect(await server.rows(of: "tasks").map { $0["id"] } == [1, 2, 3])
        await client.close()
    }

    @Test("a write the server refuses during the flush is reported as rejected")
    func rejected() async throws {
        let fixture = try await ClientFixture()
        await fixture.server.setInterceptor { request in
            guard request.method == .post else { return nil }
            return PostgrestError(status: 400, code: "23514", message: "check").response
        }
        await fixture.client.disableNetwork()
        let sent = try await fixture.client.from("tasks").insert(Self.task(1)).execute()
        guard case .queued(let pending) = sent.outcome else { throw ClientError.closed }
        let result = try await Self.flushWhileTheNetworkReturns(fixture)
        #expect(result.rejected == [pending.id])
        #expect(result.accepted.isEmpty && result.isComplete)
        await fixture.client.close()
    }

    @Test(
        "a flush whose user signs out, or whose data is cleared, returns at once and reports nothing as accepted",
        arguments: [false, true])
    func userLeaves(clears: Bool) async throws {
        let fixture = try await ClientFixture()
        let client = fixture.client
        await client.disableNetwork()
        for id in 1...3 { try await client.from("tasks").insert(Self.task(id)).execute() }
        let flushing = Task { try await client.flush(within: .seconds(10)) }
        try await fixture.sleepers(atLeast: 1)
        if clears { try await client.clearLocalData() } else { try await client.signOut() }
        let result = try await withTimeout(30) { try await flushing.value }
        #expect(result.accepted.isEmpty && result.rejected.isEmpty, "\(result)")
        #expect(result.remaining == (clears ? 0 : 3), "the user's writes still queued remain")
        #expect(fixture.writes.isEmpty)
        await client.close()
    }

    @Test("a closed client's flush throws ClientError.closed")
    func closed() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.close()
        await #expect(throws: ClientError.closed) { try await fixture.client.flush(within: .seconds(1)) }
    }
}
