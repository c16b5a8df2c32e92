import Foundation
import Testing

@testable import OfflineEngine

/// The app in control of sync: failure classes it overrides, the attempt cap and age, rejected
/// writes it retries (edited or not) or discards, the queue it waits for, and reads it refreshes.
@Suite("Sync under the app's control", .timeLimit(.minutes(10)))
struct ClientSyncControlTests {
    /// The rejected writes the stream shows and the store holds, as ids.
    private static func rejected(_ fixture: ClientFixture) async throws -> (shown: [UUID], stored: [UUID]) {
        let shown = try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.map(\.id)
        let stored = try await fixture.client.store.rejected.all().map(\.mutation.id)
        return (shown, stored)
    }

    @Test(
        "the app's classes decide: a refusal it calls transient stays queued, one it calls permanent is rejected"
    )
    func appClasses() async throws {
        let fixture = try await ClientFixture {
            $0.classifyFailure = { status, code in
                code == "P0001"
                    ? .transient
                    : code == "P0002" ? .permanent : FailureClass.standard(status: status, code: code)
            }
        }
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            let code = request.bodyRows.first?["id"] == 1 ? "P0001" : "P0002"
            return errorResponse(status: 400, code: code)
        }
        let first = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(first.isQueued)
        await #expect(throws: PostgrestError.self) {
            // Sent at once, after the queue drains: refused for good, thrown to the caller.
            try await fixture.client.from("tasks").insert(["id": 2] as Row).execute(policy: .onlineOnly)
        }
        #expect(try await fixture.client.store.queue.all().map(\.mutation.id) == [first.outcome.queuedID])
        await fixture.client.close()
    }

    @Test("past the attempt cap a write is rejected with attemptsExhaustedCode, never dropped")
    func attemptCap() async throws {
        let fixture = try await ClientFixture { $0.maxAttempts = 2 }
        fixture.probe.answer { $0.method == .post ? errorResponse(status: 503, code: "PGRST002") : nil }
        let write = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(write.isQueued)
        let client = fixture.client
        let rejected = try await fixture.clock.driving {
            try await firstValue(of: client.rejectedMutations()) { !$0.isEmpty }
        }
        #expect(rejected.map(\.error.code) == [RejectedMutation.attemptsExhaustedCode])
        #expect(rejected.first?.values == [["id": 1]])
        let state = try await Self.rejected(fixture)
        #expect(state.shown == state.stored && state.stored == [write.outcome.queuedID])
        #expect(try await fixture.client.store.queue.all().isEmpty)
        await fixture.client.close()
    }

    @Test("a write older than maxWriteAge is rejected with tooOldCode instead of sent")
    func maximumAge() async throws {
        let fixture = try await ClientFixture { $0.maxWriteAge = .zero }
        await fixture.client.disableNetwork()
        try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        await fixture.client.enableNetwork()
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(rejected.map(\.error.code) == [RejectedMutation.tooOldCode])
        #expect(fixture.writes.isEmpty)
        await fixture.client.close()
    }

    @Test("retry puts a rejected write back at the end of the queue, with edited values when given")
    func retryEdited() async throws {
        let fixture = try await ClientFixture()
        fixture.probe.answer { request in
            guard request.method == .post, request.bodyRows.first?["title"] == "" else { return nil }
            return errorResponse(status: 400, code: "23514")
        }
        await fixture.client.disableNetwork()
        try await fixture.client.from("tasks").insert(["id": 1, "title": ""] as Row).execute()
        await fixture.client.enableNetwork()
        let rejected = try #require(
            try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }.first)
        #expect(rejected.values == [["id": 1, "title": ""]])
        let fixed = rejected.values.map { $0.merging(["title": "Untitled"]) }
        let pending = try await fixture.client.retry(rejected.id, values: fixed)
        #expect(pending.id == rejected.id)
        try await fixture.client.waitForPendingWrites()
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1, "title": "Untitled"]])
        let state = try await Self.rejected(fixture)
        #expect(state.shown.isEmpty && state.stored.isEmpty)
        await #expect(throws: ClientError.notRejected) { try await fixture.client.retry(rejected.id) }
        await fixture.client.close()
    }

    @Test("discard removes a rejected write from the stream and the store; until then it stays")
    func discard() async throws {
        let fixture = try await ClientFixture()
        fixture.probe.answer { $0.method == .post ? errorResponse(status: 403, code: "42501") : nil }
        await fixture.client.disableNetwork()
        try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        await fixture.client.enableNetwork()
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { !$0.isEmpty }
        #expect(try await Self.rejected(fixture).stored == rejected.map(\.id))
        try await fixture.client.dismissRejected(rejected[0].id)
        let state = try await Self.rejected(fixture)
        #expect(state.shown.isEmpty && state.stored.isEmpty)
        await fixture.client.close()
    }

    @Test("syncNow tries a stalled read at once, without waiting for the schedule")
    func syncNowTriesStalledRead() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let failing = Turns(1_000)
        fixture.probe.answer { request in
            guard request.method == .get, failing.take() else { return nil }
            return errorResponse(status: 500, code: "XX000")
        }
        let read = fixture.client.from("tasks").select()
        let stream = read.snapshots()
        _ = try await fixture.clock.driving {
            try await firstValue(of: stream) { snapshot in
                if case .stalled = snapshot.refresh { return true }
                return false
            }
        }
        fixture.probe.answer(with: nil)
        // The stalled refresh waits on the clock, which nobody moves now: syncNow cuts it short.
        await fixture.client.syncNow()
        let idle = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(idle.column("id") == ["1"])
        await fixture.client.close()
    }

    @Test("refresh() and invalidate(table:) fetch a live read again; so does its table's queue draining")
    func freshness() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let read = fixture.client.from("tasks").select()
        let stream = read.snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        await fixture.server.setRows([["id": 1], ["id": 2]], of: "tasks")
        try await read.refresh()
        _ = try await firstValue(of: stream) { $0.column("id") == ["1", "2"] }
        await fixture.server.setRows([["id": 3]], of: "tasks")
        try await fixture.client.invalidate(table: "tasks")
        _ = try await firstValue(of: stream) { $0.column("id") == ["3"] }
        // The server fills a column in: it shows once the queue of the table drains.
        await fixture.client.disableNetwork()
        try await fixture.client.from("tasks").insert(["id": 4] as Row).execute()
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            await fixture.server.setRows(
                [["id": 3], ["id": 4, "created_at": "2026-12-01T00:00:00Z"]], of: "tasks")
            return minimalWriteResponse()
        }
        await fixture.client.enableNetwork()
        let filled = try await firstValue(of: stream) { $0.result?.rows.last?["created_at"] != nil }
        #expect(filled.column("id") == ["3", "4"] && !filled.hasPendingMutations)
        await fixture.client.close()
    }
}
