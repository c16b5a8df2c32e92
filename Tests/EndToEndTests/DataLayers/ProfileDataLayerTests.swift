import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// A profile screen with an unread-count badge as its author wrote it: the profile read with
/// `single()`, the badge with `select("id", head: true, count: .exact)`, and the notifications
/// list. Online, offline, relaunched offline and back online against PostgreSQL with a trigger
/// that stamps `updated_at` and row-level security.
@Suite("Data layers: a profile with an unread badge", .offCooperativePool, .timeLimit(.minutes(10)))
struct ProfileDataLayerTests {
    struct Profile: Decodable, Equatable {
        let id: UUID
        let username: String
        let updatedAt: Date

        enum CodingKeys: String, CodingKey {
            case id, username
            case updatedAt = "updated_at"
        }
    }

    struct Notification: Decodable, Equatable {
        let id: UUID
        let body: String
        let read: Bool
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, body, read
            case createdAt = "created_at"
        }
    }

    struct ProfileRepository {
        let supabase: OfflineClient
        let user: UUID

        var profileRead: ReadQuery { supabase.from("profiles").select().eq("id", value: user).single() }
        var unreadRead: ReadQuery {
            supabase.from("notifications").select("id", head: true, count: .exact).eq("read", value: false)
        }
        var notificationList: ReadQuery { supabase.from("notifications").select().order("body") }

        func profile() async throws -> Profile { try await profileRead.execute().value }

        func unreadCount() async throws -> Int { try await unreadRead.execute().count ?? 0 }

        func notifications() async throws -> [Notification] { try await notificationList.execute().value }

        func rename(_ username: String) async throws {
            try await supabase.from("profiles").update(["username": username]).eq("id", value: user).execute()
        }

        func markRead(_ id: UUID) async throws {
            try await supabase.from("notifications").update(["read": true]).eq("id", value: id).execute()
        }

        func dismiss(_ id: UUID) async throws {
            try await supabase.from("notifications").delete().eq("id", value: id).execute()
        }

        func remind(_ body: String) async throws {
            try await supabase.from("notifications").insert([
                "body": body, "user_id": user.uuidString.lowercased(),
            ])
            .execute()
        }
    }

    static let tables: [String: TableSettings] = [
        "notifications": TableSettings(
            madeOnDevice: ["id": .uuid, "created_at": .now, "read": .constant(false)])
    ]

    static let schema: [String] = {
        let alice = GatewayEndToEndTests.alice
        return [
            """
            CREATE TABLE public.profiles (
                id uuid PRIMARY KEY, username text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())
            """,
            """
            CREATE FUNCTION public.touch() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$
            """,
            "CREATE TRIGGER touch BEFORE UPDATE ON public.profiles FOR EACH ROW EXECUTE FUNCTION public.touch()",
            """
            CREATE TABLE public.notifications (
                id uuid PRIMARY KEY DEFAULT gen_random_uuid(), user_id uuid NOT NULL DEFAULT auth.uid(),
                body text NOT NULL, read boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL DEFAULT now())
            """,
            "ALTER TABLE public.profiles ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY read_all ON public.profiles FOR SELECT USING (true)",
            "CREATE POLICY edit_own ON public.profiles FOR UPDATE USING (auth.uid() = id) WITH CHECK (auth.uid() = id)",
            "GRANT SELECT, UPDATE ON public.profiles TO authenticated",
            "ALTER TABLE public.notifications ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY own_rows ON public.notifications USING (auth.uid() = user_id) WITH CHECK (auth.uid() = user_id)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON public.notifications TO authenticated",
            "INSERT INTO public.profiles (id, username) VALUES ('\(alice)', 'alice')",
            """
            INSERT INTO public.notifications (id, user_id, body) VALUES
                ('d0000000-0000-4000-8000-000000000001', '\(alice)', 'a: new follower'),
                ('d0000000-0000-4000-8000-000000000002', '\(alice)', 'b: new like'),
                ('d0000000-0000-4000-8000-000000000003', '\(alice)', 'c: new reply'),
                ('d0000000-0000-4000-8000-000000000004', '\(GatewayEndToEndTests.bob)', 'not alice''s')
            """,
        ]
    }()

    @Test(
        "the profile, the badge and the list decode online, offline, relaunched and back online; the badge counts offline; after the drain all equal the server's"
    )
    func profileApp() async throws {
        let user = UUID(uuidString: GatewayEndToEndTests.alice)!
        let notification: (Int) -> UUID = { UUID(uuidString: "d0000000-0000-4000-8000-00000000000\($0)")! }
        try await AppDevice.signedIn(tables: Self.tables, database: Self.schema) { device, _, session in
            var screen = ProfileRepository(supabase: device.client, user: user)
            #expect(try await screen.profile().username == "alice")
            #expect(try await screen.unreadCount() == 3)
            #expect(try await screen.notifications().count == 3)

            await device.goOffline()
            try await screen.rename("alice b.")
            try await screen.dismiss(notification(1))
            try await screen.remind("d: call back")
            #expect(try await screen.profile().username == "alice b.")
            let badge = try await screen.unreadRead.execute()
            // The reminder's insert adds one (its row reads read = false); the dismissal deletes
            // a row the cached list shows unread, which the count held: one fewer. As many as
            // the server gave, so no pending change shows on the badge.
            #expect(badge.isFromCache && !badge.hasPendingMutations)
            #expect(badge.count == 3)
            #expect(
                try await screen.notifications().map(\.body) == [
                    "b: new like", "c: new reply", "d: call back",
                ])

            await device.relaunch(offline: true)
            screen = ProfileRepository(supabase: device.client, user: user)
            #expect(try await screen.profile().username == "alice b.")
            #expect(try await screen.unreadCount() == 3)
            try await screen.markRead(notification(2))
            #expect(try await screen.notifications().first { $0.id == notification(2) }?.read == true)
            #expect(try await screen.unreadCount() == 2, "the server's count once it has the writes")

            try await device.drainsOnline(
                thenShowsServerAnswers: [
                    { ProfileRepository(supabase: $0, user: user).profileRead },
                    { ProfileRepository(supabase: $0, user: user).notificationList },
                ], as: session)
            let unread = try await screen.unreadRead.execute()
            #expect(!unread.isFromCache && !unread.hasPendingMutations && unread.count == 2)
        }
    }
}
