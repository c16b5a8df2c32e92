import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// The engine against PostgreSQL through the gateway, over real HTTP (`URLSessionTransport` to
/// ``LocalHTTPServer``): what the engine shows is compared with what the server holds.
@Suite("End to end: PostgreSQL through the gateway over HTTP", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayEndToEndTests {
    static let alice = "a11ce000-0000-4000-8000-000000000001"
    static let bob = "b0b00000-0000-4000-8000-000000000002"

    private static func task(_ id: Int, _ title: String, owner: String) -> Row {
        ["id": .number(JSONNumber(id)), "title": .string(title), "user_id": .string(owner)]
    }

    /// Takes `client` offline and queues an insert of each of `tasks`, in order.
    private static func insertOffline(_ tasks: [Row], on client: OfflineClient) async throws {
        await client.disableNetwork()
        for task in tasks { _ = try await client.from("tasks").insert(task).execute() }
    }

    @Test(
        "writes made offline show as pending; back online they replay in order, and the list equals the server's rows"
    )
    func offlineWritesReplay() async throws {
        try await withSignedInGatewayClient { client, database, _ in
            let list = client.from("tasks").select("id,title,done").order("id")
            _ = try await list.fetch()
            try await Self.insertOffline(
                (1...3).map { Self.task($0, "task \($0)", owner: Self.alice) }, on: client)
            _ = try await client.from("tasks").update(["done": true] as Row).eq("id", value: 2).execute()
            _ = try await client.from("tasks").delete().eq("id", value: 3).execute()
            let pending = try await firstSnapshot(of: list) { $0.result?.rows.count == 2 }
            #expect(pending.hasPendingMutations)
            #expect(try database.tasks().isEmpty, "nothing reached the server while offline")

            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(
                try database.tasks() == [
                    ["1", "task 1", "false", Self.alice], ["2", "task 2", "true", Self.alice],
                ])
            let fetched = try await list.fetch()
            #expect(fetched.rows.map { $0["id"] } == [1, 2])
            #expect(fetched.rows.map { $0["done"] } == [false, true])
        }
    }

    @Test(
        "a write row-level security refuses lands in rejectedMutations() with 42501 and leaves the list; the write after it lands"
    )
    func rowSecurityRejects() async throws {
        try await withSignedInGatewayClient { client, database, _ in
            try await Self.insertOffline(
                [Self.task(1, "for bob", owner: Self.bob), Self.task(2, "mine", owner: Self.alice)],
                on: client)
            await client.enableNetwork()
            let rejected = try await first(of: client.rejectedMutations()) { !$0.isEmpty }
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(rejected.map(\.error.code) == ["42501"])
            #expect(rejected.first?.error.status == 403)
            #expect(try database.tasks().map { $0[0] } == ["2"])
            let shown = try await firstSnapshot(of: client.from("tasks").select()) { !$0.hasPendingMutations }
            #expect(shown.result?.rows.map { $0["id"] } == [2])
        }
    }

    @Test(
        "user A's queued writes are not shown to user B and never reach the server with B's token; they replay once A is back"
    )
    func writesStayWithTheirOwner() async throws {
        try await withSignedInGatewayClient { client, database, _ in
            try await Self.insertOffline([Self.task(1, "alice's", owner: Self.alice)], on: client)
            try await client.signOut()
            try await client.signIn(SupabaseDatabase.session(Self.bob))
            _ = try await client.from("tasks").insert(Self.task(2, "bob's", owner: Self.bob)).execute()
            let shownToBob = try await firstSnapshot(of: client.from("tasks").select()) { $0.result != nil }
            #expect(shownToBob.result?.rows.map { $0["id"] } == [2])
            await client.enableNetwork()
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(try database.tasks().map { $0[0] } == ["2"], "alice's write waits for alice")

            try await client.signIn(SupabaseDatabase.session(Self.alice))
            _ = try await first(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(
                try database.tasks() == [
                    ["1", "alice's", "false", Self.alice], ["2", "bob's", "false", Self.bob],
                ])
            let rejected = try await first(of: client.rejectedMutations()) { _ in true }
            #expect(rejected.isEmpty)
        }
    }
}
