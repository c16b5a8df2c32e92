import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// A social app's likes as its author wrote them: a composite key (`user_id, post_id`), a list
/// of the user's liked posts that selects only `post_id` (filtering on `user_id`), like and
/// unlike, and a workout log upserted on its conflict columns. Online, offline, relaunched
/// offline and back online, against PostgreSQL with row-level security and defaults.
@Suite("Data layers: likes with a composite key", .offCooperativePool, .timeLimit(.minutes(10)))
struct LikesDataLayerTests {
    struct LikedPost: Decodable, Equatable {
        let postID: UUID

        enum CodingKeys: String, CodingKey {
            case postID = "post_id"
        }
    }

    struct PersonalBest: Codable, Equatable {
        let exerciseID: Int
        let kilograms: Int

        enum CodingKeys: String, CodingKey {
            case exerciseID = "exercise_id"
            case kilograms
        }
    }

    struct NewBest: Encodable {
        let userID: UUID
        let exerciseID: Int
        let kilograms: Int

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case exerciseID = "exercise_id"
            case kilograms
        }
    }

    struct LikesRepository {
        let supabase: OfflineClient
        let user: UUID

        var liked: ReadQuery {
            supabase.from("likes").select("post_id").eq("user_id", value: user).order("post_id")
        }

        var bests: ReadQuery {
            supabase.from("personal_bests").select("exercise_id,kilograms").eq("user_id", value: user)
                .order("exercise_id")
        }

        func likedPosts() async throws -> [LikedPost] { try await liked.execute().value }

        func personalBests() async throws -> [PersonalBest] { try await bests.execute().value }

        func like(_ post: UUID) async throws {
            try await supabase.from("likes").insert(["user_id": user, "post_id": post]).execute()
        }

        func unlike(_ post: UUID) async throws {
            try await supabase.from("likes").delete().eq("user_id", value: user).eq("post_id", value: post)
                .execute()
        }

        func record(_ exercise: Int, kilograms: Int) async throws {
            try await supabase.from("personal_bests")
                .upsert(
                    NewBest(userID: user, exerciseID: exercise, kilograms: kilograms),
                    onConflict: "user_id,exercise_id"
                )
                .execute()
        }
    }

    static let tables: [String: TableSettings] = [
        "likes": TableSettings(key: ["user_id", "post_id"]),
        "personal_bests": TableSettings(key: ["user_id", "exercise_id"]),
    ]

    static let schema =
        [
            """
            CREATE TABLE public.likes (
                user_id uuid NOT NULL DEFAULT auth.uid(), post_id uuid NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (user_id, post_id))
            """,
            """
            CREATE TABLE public.personal_bests (
                user_id uuid NOT NULL DEFAULT auth.uid(), exercise_id integer NOT NULL,
                kilograms integer NOT NULL CHECK (kilograms > 0),
                updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (user_id, exercise_id))
            """,
            """
            CREATE FUNCTION public.touch() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$
            """,
            "CREATE TRIGGER touch BEFORE UPDATE ON public.personal_bests FOR EACH ROW EXECUTE FUNCTION public.touch()",
        ] + SupabaseDatabase.rowsOwnedByTheirUser("likes")
        + SupabaseDatabase.rowsOwnedByTheirUser("personal_bests")

    @Test(
        "like, unlike and upsert on the conflict columns decide offline by the lists' own filters; every screen decodes; after the drain the lists equal the server's"
    )
    func likesApp() async throws {
        let user = UUID(uuidString: GatewayEndToEndTests.alice)!
        let posts = (1...3).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }
        try await AppDevice.signedIn(tables: Self.tables, database: Self.schema) {
            device, database, session in
            var likes = LikesRepository(supabase: device.client, user: user)
            try await likes.like(posts[0])
            try await likes.like(posts[1])
            try await likes.record(1, kilograms: 60)
            #expect(try await likes.likedPosts().map(\.postID) == [posts[0], posts[1]])
            #expect(try await likes.personalBests() == [PersonalBest(exerciseID: 1, kilograms: 60)])

            // Offline: the cached rows carry no `user_id`, yet the lists' filters say they hold
            // this user's: the unlike removes p1 and the upsert merges into exercise 1.
            await device.goOffline()
            try await likes.unlike(posts[0])
            try await likes.like(posts[2])
            try await likes.record(1, kilograms: 65)
            try await likes.record(2, kilograms: 40)
            #expect(try await likes.likedPosts().map(\.postID) == [posts[1], posts[2]])
            #expect(
                try await likes.personalBests() == [
                    PersonalBest(exerciseID: 1, kilograms: 65), PersonalBest(exerciseID: 2, kilograms: 40),
                ])

            await device.relaunch(offline: true)
            likes = LikesRepository(supabase: device.client, user: user)
            #expect(try await likes.likedPosts().map(\.postID) == [posts[1], posts[2]])
            #expect(try await likes.personalBests().map(\.kilograms) == [65, 40])

            try await device.drainsOnline(
                thenShowsServerAnswers: [
                    { LikesRepository(supabase: $0, user: user).liked },
                    { LikesRepository(supabase: $0, user: user).bests },
                ], as: session)
            #expect(
                try database.admin.execute("SELECT post_id::text FROM public.likes ORDER BY post_id")
                    == [[posts[1].uuidString.lowercased()], [posts[2].uuidString.lowercased()]])
            #expect(
                try database.admin.execute(
                    "SELECT exercise_id::text, kilograms::text FROM public.personal_bests ORDER BY 1")
                    == [["1", "65"], ["2", "40"]])
        }
    }
}
