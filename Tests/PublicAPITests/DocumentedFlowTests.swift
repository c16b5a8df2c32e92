import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The documented snippets run end to end on the public API only: an in-memory server behind a
/// recording transport, an in-memory store and a manual clock.
@Suite("Documented flow, public API only", .timeLimit(.minutes(10)))
struct DocumentedFlowTests {
    @Test("read, write online, write offline, and the queued write syncs when the network is back")
    func documentedFlow() async throws {
        let server = InMemoryPostgREST(tables: ["tasks": []])
        let transport = RecordingTransport(wrapping: server)
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: "anon-key", storage: .inMemory,
                clock: ManualClock(), transport: transport))
        try await gettingStartedSession(client, token: "token-1", userID: "user-1")
        try await client.signIn(AuthSession(accessToken: "token-1", userID: "user-1"))

        let first = Task(id: UUID(), title: "Buy milk", done: false)
        let (once, sent) = try await readmeFetchAndInsert(client, task: first)
        #expect(once.rows.isEmpty)
        guard case .sent = sent.outcome else {
            Issue.record("an online insert was not sent: \(sent.outcome)")
            return
        }
        #expect(try await withTimeout(30) { try await readmeLiveRead(client) } == [first])
        try await withTimeout(30) { try await gettingStartedLiveRead(client) }

        await client.disableNetwork()
        let second = Task(id: UUID(), title: "Call Ann", done: false)
        guard case .queued(let pending) = try await gettingStartedWrite(client, task: second).outcome else {
            Issue.record("an offline insert was not queued")
            return
        }
        #expect(pending.rowIDs == [second.id.uuidString.lowercased()])
        #expect(Set(try await gettingStartedFetch(client)) == [first, second])

        await client.enableNetwork()
        let writes = try await transport.requests(
            atLeast: 2, where: { $0.method == .post }, timeout: .seconds(30))
        #expect(writes.count >= 2)
        let drained = try await withTimeout(30) {
            for try await count in client.pendingMutationCount() where count == 0 { return true }
            return false
        }
        #expect(drained)
        #expect(await server.rows(of: "tasks").count == 2)
        await client.close()
    }
}
