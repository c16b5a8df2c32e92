import Foundation
import Testing

@testable import OfflineEngine

/// Batched replay: consecutive inserts of one owner into one table go out as one bulk request,
/// never reordered, within the configured caps; each write keeps its own outcome.
@Suite("Batched replay", .timeLimit(.minutes(10)))
struct ClientReplayBatchTests {
    /// A client with the network off, keyed by `id`, and `configure` applied.
    private static func offline(
        tables: [String: [Row]] = ["tasks": [], "notes": []],
        configure: (inout Configuration) -> Void = { _ in }
    ) async throws -> ClientFixture {
        let fixture = try await ClientFixture(tables: tables, configure: configure)
        await fixture.client.disableNetwork()
        return fixture
    }

    /// Queues an insert of `id` into `table`; returns the queued write's id.
    @discardableResult
    private static func insert(_ id: Int, into table: String = "tasks", on fixture: ClientFixture)
        async throws
        -> UUID
    {
        let result = try await fixture.client.from(table).insert(
            ["id": .number(JSONNumber(id)), "title": "t"] as Row
        )
        .execute()
        return try #require(result.outcome.queuedID)
    }

    private static func int(_ value: JSONValue?) -> Int? {
        if case .number(let number)? = value { return number.intValue }
        return nil
    }

    /// The ids each write request carried, request by request.
    private static func sentIDs(_ fixture: ClientFixture) -> [[Int]] {
        fixture.writes.map { request in request.bodyRows.compactMap { Self.int($0["id"]) } }
    }

    /// The ids a table holds on the server, in order.
    private static func serverIDs(_ fixture: ClientFixture, _ table: String = "tasks") async -> [Int] {
        await fixture.server.rows(of: table).compactMap { Self.int($0["id"]) }
    }

    private static func drain(_ fixture: ClientFixture) async throws {
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
    }

    @Test("consecutive inserts into one table go out as one request, in queue order")
    func insertsShareARequest() async throws {
        let fixture = try await Self.offline()
        for id in 1...5 { try await Self.insert(id, on: fixture) }
        try await Self.drain(fixture)
        #expect(Self.sentIDs(fixture) == [[1, 2, 3, 4, 5]])
        #expect(await Self.serverIDs(fixture) == [1, 2, 3, 4, 5])
        await fixture.client.close()
    }

    @Test("a write of another kind or table between inserts ends the batch: order is never changed")
    func orderIsKept() async throws {
        let fixture = try await Self.offline()
        for id in 1...2 { try await Self.insert(id, on: fixture) }
        _ = try await fixture.client.from("tasks").update(["title": "u"] as Row).eq("id", value: 1).execute()
        try await Self.insert(3, on: fixture)
        try await Self.insert(4, into: "notes", on: fixture)
        try await Self.insert(5, on: fixture)
        try await Self.insert(6, on: fixture)
        try await Self.drain(fixture)
        #expect(fixture.writes.map(\.method) == [.post, .patch, .post, .post, .post])
        #expect(Self.sentIDs(fixture) == [[1, 2], [], [3], [4], [5, 6]])
        #expect(await Self.serverIDs(fixture) == [1, 2, 3, 5, 6])
        await fixture.client.close()
    }

    @Test("inserts without their keys, with other columns, or asking for rows go alone")
    func unbatchable() async throws {
        let fixture = try await Self.offline()
        try await Self.insert(1, on: fixture)
        _ = try await fixture.client.from("tasks").insert(["title": "keyless"] as Row).execute()
        try await Self.insert(2, on: fixture)
        _ = try await fixture.client.from("tasks").insert(["id": 3] as Row).execute()
        try await Self.insert(4, on: fixture)
        _ = try await fixture.client.from("tasks").insert(["id": 5, "title": "t"] as Row).select().execute()
        try await Self.insert(6, on: fixture)
        try await Self.insert(7, on: fixture)
        try await Self.drain(fixture)
        #expect(Self.sentIDs(fixture) == [[1], [], [2], [3], [4], [5], [6, 7]])
        await fixture.client.close()
    }

    @Test("deletes by key, and updates by key making the same change, share a request; others go alone")
    func updatesAndDeletesByKey() async throws {
        let rows: [Row] = (1...6).map { ["id": .number(JSONNumber($0)), "title": "t", "done": false] }
        let fixture = try await Self.offline(tables: ["tasks": rows])
        let tasks = fixture.client.from("tasks")
        for id in 1...3 { _ = try await tasks.delete().eq("id", value: id).execute() }
        for id in 4...5 { _ = try await tasks.update(["done": true] as Row).eq("id", value: id).execute() }
        _ = try await tasks.update(["title": "x"] as Row).eq("id", value: 6).execute()
        _ = try await tasks.update(["title": "y"] as Row).eq("id", value: 6).expectingRows().execute()
        _ = try await tasks.delete().eq("title", value: "none").execute()
        try await Self.drain(fixture)
        let sent = fixture.writes.map {
            "\($0.method.rawValue) \($0.url.query?.removingPercentEncoding ?? "")"
        }
        #expect(
            sent == [
                "DELETE id=in.(1,2,3)", "PATCH id=in.(4,5)", "PATCH id=eq.6", "PATCH id=eq.6",
                "DELETE title=eq.none",
            ])
        let held = await fixture.server.rows(of: "tasks")
        #expect(held.map { $0["id"] } == [4, 5, 6])
        #expect(held.map { $0["done"] } == [true, true, false])
        #expect(held.map { $0["title"] } == ["t", "t", "y"])
        await fixture.client.close()
    }

    @Test("a batch holds at most the configured rows and bytes")
    func caps() async throws {
        let byRows = try await Self.offline { $0.replayBatching = ReplayBatching(maxRows: 3) }
        for id in 1...7 { try await Self.insert(id, on: byRows) }
        try await Self.drain(byRows)
        #expect(Self.sentIDs(byRows) == [[1, 2, 3], [4, 5, 6], [7]])
        await byRows.client.close()
        // One row is `[{"id":1,"title":"t"}]`, 22 bytes: two fit in 50, three do not.
        let byBytes = try await Self.offline { $0.replayBatching = ReplayBatching(maxBytes: 50) }
        for id in 1...5 { try await Self.insert(id, on: byBytes) }
        try await Self.drain(byBytes)
        #expect(Self.sentIDs(byBytes) == [[1, 2], [3, 4], [5]])
        await byBytes.client.close()
        let off = try await Self.offline { $0.replayBatching = .off }
        for id in 1...3 { try await Self.insert(id, on: off) }
        try await Self.drain(off)
        #expect(Self.sentIDs(off) == [[1], [2], [3]])
        await off.client.close()
    }

    @Test("upserts batch only with the same conflict target and handling, and never the same key twice")
    func upserts() async throws {
        let fixture = try await Self.offline()
        for id in [1, 2, 1, 3] {
            _ = try await fixture.client.from("tasks").upsert(
                ["id": .number(JSONNumber(id)), "title": "t"] as Row
            )
            .execute()
        }
        _ = try await fixture.client.from("tasks").upsert(
            ["id": 4, "title": "t"] as Row, ignoreDuplicates: true
        )
        .execute()
        try await Self.drain(fixture)
        #expect(Self.sentIDs(fixture) == [[1, 2], [1, 3], [4]])
        #expect(await Self.serverIDs(fixture) == [1, 2, 3, 4])
        await fixture.client.close()
    }

    @Test(
        "a refused batch is split until the writes at fault are rejected alone; the others are applied once")
    func refusedBatchSplits() async throws {
        let fixture = try await Self.offline()
        var ids: [Int: UUID] = [:]
        for id in 1...8 { ids[id] = try await Self.insert(id, on: fixture) }
        fixture.probe.answer { request in
            let sent = request.bodyRows.compactMap { Self.int($0["id"]) }
            if sent.contains(3) { return errorResponse(status: 400, code: "23514", message: "check") }
            if sent.contains(6) {
                return errorResponse(status: 403, code: "42501", message: "row-level security")
            }
            return nil
        }
        try await Self.drain(fixture)
        #expect(await Self.serverIDs(fixture) == [1, 2, 4, 5, 7, 8])
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { $0.count == 2 }
        #expect(Set(rejected.map(\.id)) == [ids[3], ids[6]])
        #expect(rejected.first { $0.id == ids[3] }?.error.code == "23514")
        #expect(rejected.first { $0.id == ids[6] }?.error.code == "42501")
        for id in [1, 2, 4, 5, 7, 8] {
            guard case .accepted = try await fixture.client.outcome(of: try #require(ids[id])) else {
                Issue.record("write \(id) was not accepted")
                continue
            }
        }
        guard case .rejected = try await fixture.client.outcome(of: try #require(ids[3])) else {
            Issue.record("write 3 was not rejected")
            return
        }
        // Halves: 1-8, 1-4, 1-2, 3-4, 3, 4, 5-8, 5-6, 5, 6, 7-8.
        #expect(Self.sentIDs(fixture).count == 11)
        await fixture.client.close()
    }

    @Test("a transient failure keeps the whole batch queued, and it goes again as one")
    func transientKeepsTheBatch() async throws {
        let fixture = try await Self.offline()
        for id in 1...4 { try await Self.insert(id, on: fixture) }
        let failures = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post, failures.take() else { return nil }
            return errorResponse(status: 503, code: "PGRST002")
        }
        await fixture.client.enableNetwork()
        try await fixture.sleepers(atLeast: 1)
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 4)
        fixture.clock.advance(by: .milliseconds(300))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(Self.sentIDs(fixture) == [[1, 2, 3, 4], [1, 2, 3, 4]])
        #expect(await Self.serverIDs(fixture) == [1, 2, 3, 4])
        await fixture.client.close()
    }

    @Test(
        "a batch whose answer was lost is settled by reading its keys back: applied once, what the server lacks sent again",
        arguments: [4, 2])
    func lostAnswer(applied: Int) async throws {
        let fixture = try await Self.offline()
        for id in 1...4 { try await Self.insert(id, on: fixture) }
        let server = fixture.server
        let lost = Turns(1)
        fixture.probe.answer { request in
            guard request.method == .post, lost.take() else { return nil }
            // The server holds the first `applied` rows, and the answer never arrives.
            await server.setRows(Array(request.bodyRows.prefix(applied)), of: "tasks")
            throw TransportError(kind: .connectionLost)
        }
        try await fixture.reconnectPastFirstRetry()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(await Self.serverIDs(fixture) == [1, 2, 3, 4])
        // The batch, its resend (refused: rows with its keys are there), and the rest if any.
        let resent = applied < 4 ? [Array((applied + 1)...4)] : []
        #expect(Self.sentIDs(fixture) == [[1, 2, 3, 4], [1, 2, 3, 4]] + resent)
        // One read of the four keys (`id=in.(…)`), not one a write.
        #expect(fixture.gets.count == 1)
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }

    @Test("events see each write of a batch, not the batch")
    func eventsPerWrite() async throws {
        let fixture = try await Self.offline()
        var ids: [UUID] = []
        for id in 1...3 { ids.append(try await Self.insert(id, on: fixture)) }
        let events = AsyncLog<SyncEvent>()
        let watching = collect(fixture.client.events, into: events)
        defer { watching.cancel() }
        try await Self.drain(fixture)
        try await eventually { events.values.filter { $0.kind == .writeAccepted }.count >= 3 }
        #expect(events.values.filter { $0.kind == .writeSent }.map(\.mutationID) == ids)
        #expect(events.values.filter { $0.kind == .writeAccepted }.map(\.mutationID) == ids)
        await fixture.client.close()
    }

    @Test(
        "a batch failing again and again goes in halves: the rows before the one at fault are applied, and only it runs out of attempts"
    )
    func repeatedTransientFailureHalves() async throws {
        let fixture = try await Self.offline { $0.maxAttempts = 6 }
        var ids: [Int: UUID] = [:]
        for id in 1...8 { ids[id] = try await Self.insert(id, on: fixture) }
        // A trigger on row 5 fails with an error PostgREST answers 500 for, every time.
        fixture.probe.answer { request in
            guard request.bodyRows.contains(where: { Self.int($0["id"]) == 5 }) else { return nil }
            return errorResponse(status: 500, code: "XX000", message: "trigger failed")
        }
        await fixture.client.enableNetwork()
        let client = fixture.client
        // Through the replay's waits, until nothing is queued.
        _ = try await fixture.clock.driving {
            try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
        }
        #expect(await Self.serverIDs(fixture) == [1, 2, 3, 4, 6, 7, 8])
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(rejected.map(\.id) == [ids[5]])
        #expect(rejected.first?.error.code == RejectedMutation.attemptsExhaustedCode)
        await fixture.client.close()
    }
}
