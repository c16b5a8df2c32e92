import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// Holds the first GET with the rows the server held when it arrived, until the test opens the
/// gate: an answer that left before whatever the test does meanwhile.
private func holdFirstRead(_ fixture: ClientFixture, gate: Gate) {
    let held = Mutex(false)
    let server = fixture.server
    fixture.probe.answer { request in
        guard request.method == .get,
            held.withLock({ was in
                defer { was = true }
                return !was
            })
        else {
            return nil
        }
        let rows = await server.rows(of: "tasks")
        await gate.wait()
        return jsonResponse(rows)
    }
}

@Suite("Stale answers racing writes")
struct ClientStaleAnswerTests {
    @Test("an answer whose request left before a write was patched in is refused and asked again")
    func refusedAfterWrite() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let gate = Gate()
        holdFirstRead(fixture, gate: gate)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        _ = try await gate.arrivals.values(atLeast: 1)
        let result = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
            .outcome
        #expect(result == .sent([]))
        gate.open()
        try await withTimeout(30) {
            while log.values.last?.refresh != RefreshState.idle {
                _ = try await log.values(atLeast: log.values.count + 1)
            }
        }
        #expect(log.values.last?.column("title") == ["a", "b"])
        #expect(fixture.gets.count == 2)
        // The refused answer never reached the screen.
        #expect(!log.values.contains { $0.column("title") == ["a"] })
        reader.cancel()
        await fixture.client.close()
    }

    @Test("an answer whose request left before clearLocalData is refused, not asked again, and never cached")
    func refusedAfterClear() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "secret"]]])
        let gate = Gate()
        holdFirstRead(fixture, gate: gate)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        _ = try await gate.arrivals.values(atLeast: 1)
        try await fixture.client.clearLocalData()
        await fixture.server.setRows([["id": 2, "title": "public"]], of: "tasks")
        gate.open()
        try await withTimeout(30) {
            while !(log.values.last?.refresh == RefreshState.idle
                && log.values.last?.column("title") == ["public"])
            {
                _ = try await log.values(atLeast: log.values.count + 1)
            }
        }
        #expect(!log.values.contains { $0.column("title").contains("secret") })
        // The held request was not sent again with the cleared session's token.
        #expect(fixture.gets.map(\.authorization) == ["Bearer token-user-1", "Bearer anon-key"])
        let stored = try await fixture.client.store.lists.all(table: "tasks")
        #expect(stored.flatMap(\.rows).map { $0["title"] } == ["public"])
        reader.cancel()
        await fixture.client.close()
    }

    @Test("an answer whose request left before another user signed in is not written and is asked again")
    func refusedAfterNewOwner() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "mine"]]])
        let gate = Gate()
        holdFirstRead(fixture, gate: gate)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        _ = try await gate.arrivals.values(atLeast: 1)
        try await fixture.client.signIn(ClientFixture.session("user-2"))
        await fixture.server.setRows([["id": 2, "title": "theirs"]], of: "tasks")
        gate.open()
        try await withTimeout(30) {
            while !(log.values.last?.refresh == RefreshState.idle
                && log.values.last?.column("title") == ["theirs"])
            {
                _ = try await log.values(atLeast: log.values.count + 1)
            }
        }
        #expect(!log.values.contains { $0.column("title").contains("mine") })
        #expect(fixture.gets.map(\.authorization) == ["Bearer token-user-1", "Bearer token-user-2"])
        reader.cancel()
        await fixture.client.close()
    }
}
