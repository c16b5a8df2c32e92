import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// A one-shot read (`fetch()`, a read's `execute()`) follows the reference's rule for old
/// answers as a live read does: an answer whose request left before the table's last change is
/// refused and asked again. It never passes an empty list off as the device's: with nothing
/// cached, a read refused for a clear throws `cleared`, one refused at `close()` ends as it would
/// offline (`notCached`).
@Suite("One-shot reads and old answers", .timeLimit(.minutes(10)))
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
}
