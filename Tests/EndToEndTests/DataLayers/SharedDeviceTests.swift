import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// Two users taking turns on one device (issue 30) against PostgreSQL with row-level security,
/// under the default cache per user: offline, online and over a relaunch, no snapshot shown
/// while Bob is signed in holds a row the server would refuse Bob, and Alice's queued note waits
/// for Alice and goes as Alice.
@Suite("Data layers: a shared device", .offCooperativePool, .timeLimit(.minutes(10)))
struct SharedDeviceTests {
    static let alice = GatewayEndToEndTests.alice
    static let bob = GatewayEndToEndTests.bob

    static let tables: [String: TableSettings] = [
        "notes": TableSettings(key: ["id"], madeOnDevice: ["id": .uuid])
    ]

    static let schema =
        [
            """
            CREATE TABLE public.notes (
                id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                user_id uuid NOT NULL,
                body text NOT NULL)
            """,
            """
            INSERT INTO public.notes (user_id, body) VALUES
                ('\(alice)', 'alice: passport number'), ('\(alice)', 'alice: doctor at 9'),
                ('\(bob)', 'bob: gym')
            """,
        ] + SupabaseDatabase.rowsOwnedByTheirUser("notes")

    static func notes(_ client: OfflineClient) -> ReadQuery {
        client.from("notes").select().order("body")
    }

    @Test("per user: no snapshot of Bob holds a row the server would refuse Bob; Alice's note goes as Alice")
    func usersTakeTurns() async throws {
        try await AppDevice.signedIn(tables: Self.tables, database: Self.schema) {
            device, database, aliceSession in
            let bobSession = SupabaseDatabase.session(Self.bob)
            // Alice reads her notes online, then writes one offline and signs out.
            try await device.showsServerAnswer(as: aliceSession, Self.notes)
            await device.goOffline()
            try await device.client.from("notes")
                .insert(["user_id": .string(Self.alice), "body": "alice: queued offline"] as Row).execute()
            try await device.client.signOut()

            // Bob, offline, then over a relaunch, then online: only Bob's rows, ever.
            try await device.client.signIn(bobSession)
            var watch = RowOwners(device.client, query: Self.notes)
            let offline = try await first(of: Self.notes(device.client).snapshots()) { $0.refresh == .paused }
            #expect(offline.result?.rows.isEmpty != false, "Bob's own cache: empty the first time")
            #expect(try await first(of: device.client.pendingMutationCount()) { _ in true } == 0)
            let beforeRelaunch = await watch.stop()
            #expect(beforeRelaunch.owners.allSatisfy { $0 == Self.bob })
            await device.relaunch(offline: true)
            watch = RowOwners(device.client, query: Self.notes)
            #expect(try await first(of: device.client.session) { $0 != .restoring }.userID == Self.bob)
            try await device.goOnline()
            try await device.showsServerAnswer(as: bobSession, Self.notes)
            let bobSaw = await watch.stop()
            #expect(bobSaw.snapshots > 0)
            #expect(bobSaw.owners.allSatisfy { $0 == Self.bob }, "Bob saw rows of \(Set(bobSaw.owners))")
            // Alice's queued note was not sent while Bob was signed in.
            let held = {
                try database.admin.execute("SELECT user_id::text, body FROM public.notes ORDER BY body")
            }
            #expect(try held().count == 3)

            // Alice again, offline: her rows and her queued note, as she left them.
            try await device.client.signOut()
            await device.goOffline()
            try await device.client.signIn(aliceSession)
            let back = try await first(of: Self.notes(device.client).snapshots()) { $0.refresh == .paused }
            let backOwners = back.result?.rows.map { $0["user_id"]?.stringValue } ?? []
            #expect(backOwners.allSatisfy { $0 == Self.alice })
            #expect(back.result?.rows.count == 3 && back.hasPendingMutations)
            // Online, her queue replays as Alice (the server's policy would refuse it as anyone else).
            try await device.goOnline()
            try await device.drain()
            #expect(try held().contains { $0 == [Self.alice, "alice: queued offline"] })
            try await device.showsServerAnswer(as: aliceSession, Self.notes)

            // Bob once more, online: Bob's rows alone.
            try await device.client.signIn(bobSession)
            watch = RowOwners(device.client, query: Self.notes)
            try await device.showsServerAnswer(as: bobSession, Self.notes)
            let again = await watch.stop()
            #expect(again.owners.allSatisfy { $0 == Self.bob }, "Bob saw rows of \(Set(again.owners))")
        }
    }
}
