import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// A todo app's data layer as its author wrote it for supabase-swift (server-made `id` and
/// `inserted_at`, decoded as non-optional; a trigger that trims titles), moved to the offline
/// client with only the client changed, run online, offline, across a relaunch while offline,
/// and back online against PostgreSQL with row-level security.
@Suite("Data layers: a todo list", .offCooperativePool, .timeLimit(.minutes(10)))
struct TodoDataLayerTests {
    struct Todo: Codable, Identifiable, Equatable {
        let id: UUID
        var title: String
        var isComplete: Bool
        let userID: UUID
        let insertedAt: Date

        enum CodingKeys: String, CodingKey {
            case id, title
            case isComplete = "is_complete"
            case userID = "user_id"
            case insertedAt = "inserted_at"
        }
    }

    struct NewTodo: Encodable {
        let title: String
        let userID: UUID

        enum CodingKeys: String, CodingKey {
            case title
            case userID = "user_id"
        }
    }

    /// The app's repository, unchanged but for the client's type.
    struct TodoRepository {
        let supabase: OfflineClient

        var allTodos: ReadQuery {
            supabase.from("todos").select().order("inserted_at", ascending: false)
        }

        func todos() async throws -> [Todo] {
            try await allTodos.execute().value
        }

        func openTodos() async throws -> [Todo] {
            try await supabase.from("todos").select().eq("is_complete", value: false).order("title")
                .execute().value
        }

        @discardableResult
        func add(_ title: String, for user: UUID) async throws -> Todo {
            try await supabase.from("todos").insert(NewTodo(title: title, userID: user)).select().single()
                .execute().value
        }

        func setComplete(_ id: UUID, _ isComplete: Bool) async throws {
            try await supabase.from("todos").update(["is_complete": isComplete]).eq("id", value: id).execute()
        }

        func remove(_ id: UUID) async throws {
            try await supabase.from("todos").delete().eq("id", value: id).execute()
        }
    }

    static let tables: [String: TableSettings] = [
        "todos": TableSettings(
            key: ["id"], madeOnDevice: ["id": .uuid, "inserted_at": .now, "is_complete": .constant(false)])
    ]

    static let schema =
        [
            """
            CREATE TABLE public.todos (
                id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                user_id uuid NOT NULL DEFAULT auth.uid(),
                title text NOT NULL CHECK (char_length(title) > 0),
                is_complete boolean NOT NULL DEFAULT false,
                inserted_at timestamptz NOT NULL DEFAULT now())
            """,
            """
            CREATE FUNCTION public.trim_title() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN NEW.title := btrim(NEW.title); RETURN NEW; END $$
            """,
            "CREATE TRIGGER trim_title BEFORE INSERT OR UPDATE ON public.todos FOR EACH ROW EXECUTE FUNCTION public.trim_title()",
        ] + SupabaseDatabase.rowsOwnedByTheirUser("todos")

    /// Every screen of the app, read as the app reads it: each decodes.
    static func screens(_ repository: TodoRepository) async throws -> (all: [Todo], open: [Todo]) {
        (try await repository.todos(), try await repository.openTodos())
    }

    @Test(
        "online, offline, relaunched offline and back online, every screen decodes; after the drain the lists equal the server's"
    )
    func todoApp() async throws {
        let user = UUID(uuidString: GatewayEndToEndTests.alice)!
        try await AppDevice.signedIn(tables: Self.tables, database: Self.schema) {
            device, database, session in
            // Online: the server makes nothing the app sees differ from what it would offline.
            let milk = try await TodoRepository(supabase: device.client).add("  milk ", for: user)
            #expect(milk.title == "milk", "the trigger's work comes back online")
            var shown = try await Self.screens(TodoRepository(supabase: device.client))
            #expect(shown.all.map(\.title) == ["milk"])

            // Offline: writes queue, and every screen keeps decoding with them laid on top.
            await device.goOffline()
            let bread = try await TodoRepository(supabase: device.client).add("bread", for: user)
            try await TodoRepository(supabase: device.client).setComplete(milk.id, true)
            shown = try await Self.screens(TodoRepository(supabase: device.client))
            #expect(
                shown.all.map(\.id) == [milk.id, bread.id],
                "a queued row follows the list's rows: order is not applied (the reference)")
            #expect(shown.open.map(\.id) == [bread.id])
            let eggs = try await TodoRepository(supabase: device.client).add("eggs", for: user)
            try await TodoRepository(supabase: device.client).remove(eggs.id)

            // Relaunched while offline: the queue and the rows made on the device are kept.
            await device.relaunch(offline: true)
            shown = try await Self.screens(TodoRepository(supabase: device.client))
            #expect(shown.all.map(\.id) == [milk.id, bread.id])
            #expect(
                shown.all.last?.insertedAt == bread.insertedAt,
                "the device's time is kept across the relaunch")
            let live = try await first(of: TodoRepository(supabase: device.client).allTodos.snapshots()) {
                $0.result != nil
            }
            #expect(try live.result?.decode([Todo].self).count == 2)
            #expect(live.hasPendingMutations)

            // Back online: the queue drains, the server holds the device's ids, and the lists
            // equal the server's answers.
            try await device.goOnline()
            try await device.drain()
            let held = try database.admin.execute(
                "SELECT id::text, title, is_complete::text FROM public.todos ORDER BY title")
            #expect(
                held == [
                    [bread.id.uuidString.lowercased(), "bread", "false"],
                    [milk.id.uuidString.lowercased(), "milk", "true"],
                ])
            try await device.showsServerAnswer(as: session) { TodoRepository(supabase: $0).allTodos }
            try await device.showsServerAnswer(as: session) {
                $0.from("todos").select().eq("is_complete", value: false).order("title")
            }
            shown = try await Self.screens(TodoRepository(supabase: device.client))
            #expect(shown.all.map(\.id) == [bread.id, milk.id])
        }
    }
}
