import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Users taking turns on one device (issue 30), through the public API, against a server with
/// row-level security: under ``CacheSharing/perUser`` no snapshot of B holds a row fetched for A
/// or any of A's writes, and A comes back to A's rows and queue; under ``CacheSharing/handOver``
/// B sees A's server rows (stale) until fetched with B's token, and never A's writes.
@Suite("Users taking turns on a shared device", .timeLimit(.minutes(10)))
struct ClientSharedDeviceTests {
    /// A reads, A's writes are replayed, rejected and queued, and A signs out: returns A's read.
    /// On the server: A owns `a1`, B owns `b1`. A's `a3` (owned by B) is rejected, `a4` is
    /// replayed, `a2` waits in the queue.
    private static func aLeavesWrites(on device: SharedDevice) async throws {
        let client = device.client
        try await SharedDevice.seed(device.server, [("A", "a1"), ("B", "b1")])
        try await client.signIn(SharedDevice.session("A"))
        let read = client.from("items").select()
        _ = try await firstValue(of: read.snapshots()) { $0.refresh == .idle && $0.column("id") == ["a1"] }
        await client.disableNetwork()
        _ = try await client.from("items").insert(["id": "a3", "owner": "B"] as Row).execute()
        _ = try await client.from("items").insert(["id": "a4", "owner": "A"] as Row).execute()
        await client.enableNetwork()
        _ = try await device.clock.driving {
            try await firstValue(of: client.rejectedMutations()) { $0.count == 1 }
        }
        _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
        await client.disableNetwork()
        _ = try await client.from("items").insert(["id": "a2", "owner": "A"] as Row).execute()
        try await client.signOut()
    }

    /// Whether a snapshot holds anything of A's: a row A fetched or wrote.
    private static func holdsAnythingOfA(_ snapshot: QuerySnapshot) -> Bool {
        snapshot.column("id").contains { $0.hasPrefix("a") } || snapshot.column("owner").contains("A")
    }

    @Test("per user: B sees none of A's rows or writes offline, on a failing server and online")
    func perUserKeepsBApart() async throws {
        let device = try await SharedDevice(sharing: .perUser)
        let client = device.client
        try await Self.aLeavesWrites(on: device)

        try await client.signIn(SharedDevice.session("B"))
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(client.from("items").select().snapshots(), into: log)
        // Offline: B's own cache, empty the first time.
        let offline = try await firstValue(of: client.from("items").select().snapshots()) {
            $0.refresh == .paused
        }
        #expect(offline.column("id").isEmpty)
        #expect(try await firstValue(of: client.pendingMutations(table: "items")) { _ in true }.isEmpty)
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.isEmpty)
        #expect(try await firstValue(of: client.pendingMutationCount()) { _ in true } == 0)
        // A failing server: still nothing of A's.
        device.transport.failing = true
        await client.enableNetwork()
        _ = try await device.clock.driving {
            try await firstValue(of: client.from("items").select().snapshots()) {
                if case .stalled = $0.refresh { return true }
                return false
            }
        }
        // Online: B's rows.
        device.transport.failing = false
        _ = try await device.clock.driving {
            try await firstValue(of: client.from("items").select().snapshots()) {
                $0.refresh == .idle && $0.column("id") == ["b1"]
            }
        }
        reader.cancel()
        #expect(!log.values.isEmpty)
        #expect(log.values.allSatisfy { !Self.holdsAnythingOfA($0) })
        // A's queued write was never sent as B.
        #expect(device.writeTokens.allSatisfy { $0 == "Bearer token-A" })
        #expect(await device.server.report().rows["a2"] == nil)

        // A returns offline: A's rows and queue as A left them.
        try await client.signOut()
        await client.disableNetwork()
        try await client.signIn(SharedDevice.session("A"))
        // A's rows come back. An answer that an earlier read of this query asked for (written
        // for A) once left a new read waiting for its own refresh to report it, so it showed A's
        // pending write alone; the log says what the read showed if it fails again.
        let backRead = LiveList(client.from("items").select())
        defer { backRead.stop() }
        let back: QuerySnapshot
        do {
            back = try await backRead.first { $0.refresh == .paused && $0.column("id").count == 3 }
        } catch {
            Issue.record("A's read showed \(backRead.log.values.map { ($0.column("id"), $0.refresh) })")
            throw error
        }
        #expect(back.column("id").sorted() == ["a1", "a2", "a4"], "\(back)")
        #expect(back.hasPendingMutations)
        let pending = try await firstValue(of: client.pendingMutations(table: "items")) { _ in true }
        #expect(pending.flatMap(\.rowIDs) == ["a2"])
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.count == 1)
        // A's queue replays as A.
        await client.enableNetwork()
        try await device.expectQueueReplayedAsA()
        await device.close()
    }

    @Test("hand-over: B sees A's server rows, stale, until fetched with B's token, and none of A's writes")
    func handOverShowsAsDocumented() async throws {
        let device = try await SharedDevice(sharing: .handOver)
        let client = device.client
        try await Self.aLeavesWrites(on: device)

        try await client.signIn(SharedDevice.session("B"))
        let offline = try await firstValue(of: client.from("items").select().snapshots()) {
            $0.refresh == .paused
        }
        // The cache passed to B: A's fetched rows, from the cache, without A's writes.
        #expect(offline.column("id") == ["a1"])
        #expect(offline.isFromCache && !offline.hasPendingMutations)
        #expect(try await firstValue(of: client.pendingMutations(table: "items")) { _ in true }.isEmpty)
        #expect(try await firstValue(of: client.rejectedMutations()) { _ in true }.isEmpty)
        await client.enableNetwork()
        _ = try await device.clock.driving {
            try await firstValue(of: client.from("items").select().snapshots()) {
                $0.refresh == .idle && $0.column("id") == ["b1"]
            }
        }
        // A's queued write waits for A, and replays as A.
        #expect(await device.server.report().rows["a2"] == nil)
        try await client.signIn(SharedDevice.session("A"))
        try await device.expectQueueReplayedAsA()
        await device.close()
    }

    @Test("per user: an answer whose request left for A is not written to B's cache")
    func answerForAStaysOutOfB() async throws {
        let device = try await SharedDevice.withRowsOfAAndB(sharing: .perUser)
        let client = device.client
        let gate = Gate()
        device.transport.hold = { request in
            request.method == .get && request.headers["Authorization"] == "Bearer token-A" ? gate : nil
        }
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(client.from("items").select().snapshots(), into: log)
        _ = try await gate.arrivals.values(atLeast: 1)
        try await client.signIn(SharedDevice.session("B"))
        gate.open()
        _ = try await device.clock.driving {
            try await firstValue(of: client.from("items").select().snapshots()) {
                $0.refresh == .idle && $0.column("id") == ["b1"]
            }
        }
        reader.cancel()
        #expect(log.values.allSatisfy { !Self.holdsAnythingOfA($0) })
        // Offline, B's cache holds B's rows alone.
        await client.disableNetwork()
        let cached = try await firstValue(of: client.from("items").select().snapshots()) {
            $0.refresh == .paused
        }
        #expect(cached.column("id") == ["b1"])
        await device.close()
    }

    @Test("per user: a live read held while users take turns shows each one's own cache and writes")
    func heldReadFollowsTheUser() async throws {
        let device = try await SharedDevice.withRowsOfAAndB(sharing: .perUser)
        let client = device.client
        let list = LiveList(client.from("items").select())
        _ = try await list.first { $0.refresh == .idle && $0.column("id") == ["a1"] }
        await client.disableNetwork()
        _ = try await client.from("items").insert(["id": "a2", "owner": "A"] as Row).execute()
        _ = try await list.first { $0.column("id") == ["a1", "a2"] }
        try await client.signIn(SharedDevice.session("B"))
        _ = try await list.first { $0.refresh == .paused && $0.column("id").isEmpty }
        try await client.signIn(SharedDevice.session("A"))
        _ = try await list.first { $0.column("id") == ["a1", "a2"] }
        _ = try await client.from("items").insert(["id": "a3", "owner": "A"] as Row).execute()
        let written = try await list.first { $0.column("id").contains("a3") }
        #expect(written.column("id") == ["a1", "a2", "a3"])
        // While each user's lists are read from the store, the list never shows their pending
        // write without the rows it was laid over.
        #expect(list.log.values.allSatisfy { $0.column("id") != ["a2"] })
        list.stop()
        await device.close()
    }
}
