import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// "A write shows in every list at once, online or offline": a write sent at once shows, as a
/// pending write, while its request waits for the server, and once answered shows as the server
/// sent it (accepted), as a queued write (not settled) or not at all (refused), and only once.
@Suite("A write shows while it is being sent", .timeLimit(.minutes(10)))
struct ClientSendingOverlayTests {
    static let rows: [Row] = [["id": 1, "done": false]]

    /// A client with the list of every task read, whose writes wait at `gate` before the server
    /// answers them as `answer` says (`nil`: the server's own answer).
    static func heldWrites(
        answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil }
    ) async throws -> (ClientFixture, LiveList, Gate) {
        let fixture = try await ClientFixture(tables: ["tasks": Self.rows])
        let list = LiveList(fixture.client.from("tasks").select())
        _ = try await list.first { $0.refresh == .idle && $0.column("id") == ["1"] }
        let gate = Gate()
        fixture.probe.answer { request in
            guard request.method != .get else { return nil }
            await gate.wait()
            return answer(request)
        }
        return (fixture, list, gate)
    }

    @Test("while an insert sent at once waits for the server, every list shows it as pending; accepted, once")
    func insertShowsWhileSent() async throws {
        let (fixture, list, gate) = try await Self.heldWrites()
        let client = fixture.client
        let insert = Task {
            try await client.from("tasks").insert(["id": 2, "done": false] as Row).execute()
        }
        let shown = try await list.first { $0.column("id") == ["1", "2"] }
        #expect(shown.hasPendingMutations)
        #expect(try await fixture.probe.writes(atLeast: 1).count == 1, "it was sent at once")
        gate.open()
        #expect(try await insert.value.isQueued == false)
        let settled = try await list.first { !$0.hasPendingMutations }
        #expect(settled.column("id") == ["1", "2"])
        #expect(list.log.values.allSatisfy { $0.column("id").filter { $0 == "2" }.count <= 1 })
        list.stop()
        await client.close()
    }

    @Test("a write sent at once that the server refuses leaves the lists when execute() throws")
    func refusedLeaves() async throws {
        let (fixture, list, gate) = try await Self.heldWrites { _ in
            errorResponse(status: 400, code: "22P02", message: "invalid input")
        }
        let client = fixture.client
        let insert = Task {
            try await client.from("tasks").insert(["id": 2, "done": false] as Row).execute()
        }
        _ = try await list.first { $0.column("id") == ["1", "2"] }
        gate.open()
        await #expect(throws: PostgrestError.self) { try await insert.value }
        _ = try await list.first { $0.column("id") == ["1"] && !$0.hasPendingMutations }
        list.stop()
        await client.close()
    }

    @Test("a write sent at once whose send fails stays shown, once, as a queued write")
    func failedStaysQueued() async throws {
        let (fixture, list, gate) = try await Self.heldWrites { _ in
            errorResponse(status: 503, code: "PGRST002")
        }
        let client = fixture.client
        let insert = Task {
            try await client.from("tasks").insert(["id": 2, "done": false] as Row).execute()
        }
        _ = try await list.first { $0.column("id") == ["1", "2"] }
        let before = list.count
        gate.open()
        #expect(try await insert.value.isQueued)
        _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 1 }
        let after = list.log.values.dropFirst(before)
        #expect(after.allSatisfy { $0.column("id") == ["1", "2"] && $0.hasPendingMutations }, "\(after)")
        list.stop()
        await client.close()
    }
}
