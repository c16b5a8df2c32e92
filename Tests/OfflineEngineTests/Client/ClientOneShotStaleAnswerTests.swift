import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A one-shot read (`fetch()`, a read's `execute()`) follows the reference's rule for old
/// answers: an answer whose request left before the table's last change is refused; the cache
/// answers instead, or with nothing cached it is asked again. It never passes an empty list off
/// as the device's: with nothing cached, a read refused for a clear throws `cleared`, one refused
/// at `close()` ends as it would offline (`notCached`). And a write sent at once whose answer arrives after
/// `clearLocalData()` is not laid into the cache made since (SPEC section 4).
@Suite("One-shot calls and old answers", .timeLimit(.minutes(10)))
struct ClientOneShotStaleAnswerTests {
    /// A client over a table of one task titled `title`, and a fetch of it whose request the
    /// server holds until `gate` opens.
    private static func heldFetch(title: JSONValue, gate: Gate) async throws -> (
        ClientFixture, Task<FetchResult, any Error>
    ) {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": title]]])
        holdFirstRead(fixture, gate: gate)
        let read = Task { [client = fixture.client] in try await client.from("tasks").select().fetch() }
        _ = try await gate.arrivals.values(atLeast: 1)
        return (fixture, read)
    }

    @Test("a fetch whose answer left before a write sent at once is asked again: the server's rows, both")
    func askedAgainAfterWrite() async throws {
        let gate = Gate()
        let (fixture, read) = try await Self.heldFetch(title: "a", gate: gate)
        let client = fixture.client
        let sent = try await client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute().outcome
        #expect(sent == .sent([]))
        gate.open()
        let result = try await withTimeout(30) { try await read.value }
        #expect(result.rows.map { $0["id"] } == [1, 2])
        #expect(!result.isFromCache)
        #expect(fixture.gets.count == 2)
        await client.close()
    }

    @Test(
        "a fetch whose answer is refused answers from its cache when it has one, the write laid in, at once")
    func refusedAnswersFromCache() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let client = fixture.client
        #expect(try await client.from("tasks").select().fetch().rows.count == 1)
        let gate = Gate()
        holdFirstRead(fixture, gate: gate)
        let read = Task { try await client.from("tasks").select().fetch() }
        _ = try await gate.arrivals.values(atLeast: 1)
        _ = try await client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
        gate.open()
        let result = try await withTimeout(30) { try await read.value }
        #expect(result.isFromCache)
        #expect(result.rows.map { $0["id"] } == [1, 2])
        #expect(fixture.gets.count == 2)
        await client.close()
    }

    @Test("a fetch with nothing cached whose answer left before clearLocalData() throws cleared")
    func clearedThrows() async throws {
        let gate = Gate()
        let (fixture, read) = try await Self.heldFetch(title: "secret", gate: gate)
        let client = fixture.client
        try await client.clearLocalData()
        gate.open()
        await #expect(throws: ClientError.cleared) { try await withTimeout(30) { try await read.value } }
        #expect(try await client.store.lists.all(table: "tasks").isEmpty)
        await client.close()
    }

    @Test(
        "a fetch with nothing cached under way at close() ends as it would offline, never with an empty list")
    func closeEndsAsOffline() async throws {
        let gate = Gate()
        let (fixture, read) = try await Self.heldFetch(title: "a", gate: gate)
        let client = fixture.client
        let closing = Task { await client.close() }
        try await eventually { client.isClosing }
        gate.open()
        await #expect(throws: ClientError.notCached) { try await withTimeout(30) { try await read.value } }
        await closing.value
    }

    @Test(
        "a write sent at once whose answer arrives after clearLocalData() is not laid into the lists made since"
    )
    func writeAnswerAfterClearNotPatched() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let gate = Gate()
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            await gate.wait()
            return nil
        }
        let client = fixture.client
        let write = Task { try await client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute() }
        _ = try await gate.arrivals.values(atLeast: 1)
        try await client.clearLocalData()
        // A list made after the clear, fetched while the write is still under way.
        let stream = client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .idle && $0.column("id") == ["1"] }
        gate.open()
        // The server applied it: the call says so; the cache made since the clear does not take it.
        #expect(try await withTimeout(30) { try await write.value }.outcome == .sent([]))
        let stored = try await client.store.lists.all(table: "tasks").flatMap(\.rows)
        #expect(stored.map { $0["id"] } == [1])
        #expect(await fixture.current(client.from("tasks").select())?.column("id") == ["1"])
        await client.close()
    }
}
