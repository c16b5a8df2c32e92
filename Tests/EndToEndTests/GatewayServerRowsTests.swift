import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// A write sent at once lays the server's rows (its ids and defaults) into the cached lists when
/// what it sent lacks columns they read, end to end on PostgreSQL, so the lists decode offline.
@Suite("End to end: online writes lay the server's rows", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayServerRowsTests {
    static let alice = GatewayEndToEndTests.alice

    /// A channel as an app decodes it: the server makes `id` and `created_at`. The app names no
    /// keys; its decoder converts the columns' snake case.
    struct Channel: Decodable, Equatable {
        let id: UUID
        let name: String
        let createdAt: Date
    }

    /// The app's decoder: the library's, reading `created_at` as `createdAt`.
    static func snakeCaseDecoder() -> JSONDecoder {
        let decoder = Configuration.defaultDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    private static let schema = [
        """
        CREATE TABLE public.channels (
            id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(), user_id uuid NOT NULL DEFAULT auth.uid())
        """,
        "ALTER TABLE public.channels ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY own_rows ON public.channels USING (auth.uid() = user_id) WITH CHECK (auth.uid() = user_id)",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON public.channels TO authenticated",
        "CREATE TABLE public.events (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), kind text NOT NULL)",
        "ALTER TABLE public.events ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY send_any ON public.events FOR INSERT WITH CHECK (true)",
        "GRANT SELECT, INSERT ON public.events TO authenticated",
    ]

    @Test(
        "an online insert without select() lays the server's id and created_at into a cached list, which decodes online and offline; the app gets no rows"
    )
    func serverRowsLaid() async throws {
        try await withSignedInGatewayClient(database: Self.schema) { client, database, _ in
            let list = client.from("channels").select().order("name")
            _ = try await list.fetch()
            let sent = try await client.from("channels").insert(["name": "general"] as Row).execute()
            #expect(!sent.isQueued && sent.rows.isEmpty, "the app asked for no rows")
            let shown = try await firstSnapshot(of: list) { $0.result?.rows.count == 1 }
            let channels = try #require(
                try shown.result?.decode([Channel].self, decoder: Self.snakeCaseDecoder()))
            let held = try database.admin.execute("SELECT id::text FROM public.channels")
            #expect(channels.map { $0.id.uuidString.lowercased() } == held.map { $0[0] })

            await client.disableNetwork()
            let offline = try await firstSnapshot(of: list) { $0.refresh == .paused }
            #expect(try offline.result?.decode([Channel].self, decoder: Self.snakeCaseDecoder()) == channels)
        }
    }

    @Test(
        "a table without a read policy refuses to show the rows: the insert goes again as the app made it, accepted"
    )
    func insertOnlyFallsBack() async throws {
        try await withSignedInGatewayClient(database: Self.schema) { client, database, _ in
            _ = try await client.from("events").select().fetch()
            let sent = try await client.from("events").insert(["kind": "opened"] as Row).execute()
            #expect(!sent.isQueued)
            #expect(try database.admin.execute("SELECT kind FROM public.events") == [["opened"]])
            #expect(try await first(of: client.rejectedMutations()) { _ in true }.isEmpty)
        }
    }
}
