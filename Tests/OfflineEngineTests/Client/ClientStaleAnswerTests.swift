import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

@Suite("Stale answers racing writes", .timeLimit(.minutes(10)))
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
        try await log.waitForLatest { $0.refresh == .idle }
        #expect(log.values.last?.column("title") == ["a", "b"])
        #expect(fixture.gets.count == 2)
        // The refused answer never reached the screen.
        #expect(!log.values.contains { $0.column("title") == ["a"] })
        reader.cancel()
        await fixture.client.close()
    }

    /// What happens while a read's request is held: the cache cleared or passed to another user,
    /// with the rows the server holds before and after, and the rule the answer follows.
    enum CacheChange: CaseIterable, CustomTestStringConvertible {
        case clear
        case newOwner

        var testDescription: String {
            switch self {
            case .clear:
                "an answer whose request left before clearLocalData is refused, not asked again, and never cached"
            case .newOwner:
                "an answer whose request left before another user signed in is not written and is asked again"
            }
        }

        var before: String { self == .clear ? "secret" : "mine" }
        var after: String { self == .clear ? "public" : "theirs" }
        /// The token the read is sent again with (none after a clear: the cleared session's is
        /// not used again).
        var secondAuthorization: String { self == .clear ? "Bearer anon-key" : "Bearer token-user-2" }

        func make(on client: OfflineClient) async throws {
            switch self {
            case .clear: try await client.clearLocalData()
            case .newOwner: try await client.signIn(ClientFixture.session("user-2"))
            }
        }
    }

    @Test("an answer whose request left before the cache changed hands", arguments: CacheChange.allCases)
    func refusedAfterCacheChange(_ change: CacheChange) async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": .string(change.before)]]])
        let gate = Gate()
        holdFirstRead(fixture, gate: gate)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        _ = try await gate.arrivals.values(atLeast: 1)
        try await change.make(on: fixture.client)
        await fixture.server.setRows([["id": 2, "title": .string(change.after)]], of: "tasks")
        gate.open()
        try await log.waitForLatest { $0.refresh == .idle && $0.column("title") == [change.after] }
        #expect(!log.values.contains { $0.column("title").contains(change.before) })
        #expect(fixture.gets.map(\.authorization) == ["Bearer token-user-1", change.secondAuthorization])
        if change == .clear {
            let stored = try await fixture.client.store.lists.all(table: "tasks")
            #expect(stored.flatMap(\.rows).map { $0["title"] } == [.string(change.after)])
        }
        reader.cancel()
        await fixture.client.close()
    }
}
