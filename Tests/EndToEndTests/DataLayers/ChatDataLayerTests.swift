import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// A chat app's data layer as its author wrote it: channels, messages that embed their author
/// (`author:profiles!user_id(username)`), and a message sent with `.select().single()` whose
/// answer the screen shows at once. Online, offline, relaunched offline and back online against
/// PostgreSQL with defaults, a trigger and row-level security.
@Suite("Data layers: a chat", .offCooperativePool, .timeLimit(.minutes(10)))
struct ChatDataLayerTests {
    struct Channel: Decodable, Equatable {
        let id: UUID
        let slug: String
        let insertedAt: Date

        enum CodingKeys: String, CodingKey {
            case id, slug
            case insertedAt = "inserted_at"
        }
    }

    struct Message: Decodable, Equatable {
        struct Author: Decodable, Equatable {
            let username: String
        }

        let id: UUID
        let message: String
        let channelID: UUID
        let insertedAt: Date
        let author: Author

        enum CodingKeys: String, CodingKey {
            case id, message, author
            case channelID = "channel_id"
            case insertedAt = "inserted_at"
        }
    }

    struct NewMessage: Encodable {
        let message: String
        let channelID: UUID
        let userID: UUID

        enum CodingKeys: String, CodingKey {
            case message
            case channelID = "channel_id"
            case userID = "user_id"
        }
    }

    static let messageColumns = "*, author:profiles!user_id(username)"

    struct ChatRepository {
        let supabase: OfflineClient
        let user: UUID

        var channelList: ReadQuery { supabase.from("channels").select("id,slug,inserted_at").order("slug") }

        func messageList(in channel: UUID) -> ReadQuery {
            supabase.from("messages").select(ChatDataLayerTests.messageColumns).eq(
                "channel_id", value: channel
            )
            .order("inserted_at")
        }

        func channels() async throws -> [Channel] { try await channelList.execute().value }

        func messages(in channel: UUID) async throws -> [Message] {
            try await messageList(in: channel).execute().value
        }

        func addChannel(_ slug: String) async throws -> Channel {
            try await supabase.from("channels").insert(["slug": slug]).select("id,slug,inserted_at").single()
                .execute().value
        }

        func send(_ text: String, to channel: UUID) async throws -> Message {
            try await supabase.from("messages").insert(
                NewMessage(message: text, channelID: channel, userID: user)
            )
            .select(ChatDataLayerTests.messageColumns).single().execute().value
        }
    }

    static let tables: [String: TableSettings] = [
        "channels": TableSettings(madeOnDevice: ["id": .uuid, "inserted_at": .now]),
        "messages": TableSettings(madeOnDevice: ["id": .uuid, "inserted_at": .now]),
    ]

    static let schema = [
        "CREATE TABLE public.profiles (id uuid PRIMARY KEY, username text NOT NULL)",
        """
        CREATE TABLE public.channels (
            id uuid PRIMARY KEY DEFAULT gen_random_uuid(), slug text NOT NULL UNIQUE,
            created_by uuid NOT NULL DEFAULT auth.uid(), inserted_at timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE public.messages (
            id uuid PRIMARY KEY DEFAULT gen_random_uuid(), message text NOT NULL,
            user_id uuid NOT NULL DEFAULT auth.uid() REFERENCES public.profiles (id),
            channel_id uuid NOT NULL REFERENCES public.channels (id),
            inserted_at timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE FUNCTION public.trim_message() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN NEW.message := btrim(NEW.message); RETURN NEW; END $$
        """,
        "CREATE TRIGGER trim_message BEFORE INSERT ON public.messages FOR EACH ROW EXECUTE FUNCTION public.trim_message()",
        "ALTER TABLE public.profiles ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY read_all ON public.profiles FOR SELECT USING (true)",
        "GRANT SELECT ON public.profiles TO authenticated",
        "ALTER TABLE public.channels ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY read_all ON public.channels FOR SELECT USING (true)",
        "CREATE POLICY add_own ON public.channels FOR INSERT WITH CHECK (auth.uid() = created_by)",
        "GRANT SELECT, INSERT ON public.channels TO authenticated",
        "ALTER TABLE public.messages ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY read_all ON public.messages FOR SELECT USING (true)",
        "CREATE POLICY send_own ON public.messages FOR INSERT WITH CHECK (auth.uid() = user_id)",
        "GRANT SELECT, INSERT ON public.messages TO authenticated",
        """
        INSERT INTO public.profiles VALUES
            ('\(GatewayEndToEndTests.alice)', 'alice'), ('\(GatewayEndToEndTests.bob)', 'bob')
        """,
        """
        INSERT INTO public.channels (id, slug, created_by) VALUES
            ('c0000000-0000-4000-8000-000000000001', 'general', '\(GatewayEndToEndTests.bob)')
        """,
        """
        INSERT INTO public.messages (message, user_id, channel_id) VALUES
            ('welcome', '\(GatewayEndToEndTests.bob)', 'c0000000-0000-4000-8000-000000000001')
        """,
    ]

    @Test(
        "messages embedding their author decode online, offline (the author taken from a cached row), relaunched and back online; after the drain the lists equal the server's"
    )
    func chatApp() async throws {
        let user = UUID(uuidString: GatewayEndToEndTests.alice)!
        let general = UUID(uuidString: "c0000000-0000-4000-8000-000000000001")!
        try await AppDevice.signedIn(tables: Self.tables, database: Self.schema) { device, _, session in
            var chat = ChatRepository(supabase: device.client, user: user)
            #expect(try await chat.channels().map(\.slug) == ["general"])
            let hello = try await chat.send("  hello ", to: general)
            #expect(hello.message == "hello" && hello.author.username == "alice")
            #expect(try await chat.messages(in: general).map(\.message) == ["welcome", "hello"])

            await device.goOffline()
            let offline = try await chat.send("on the train", to: general)
            #expect(offline.author.username == "alice", "the author as a cached message of alice's holds it")
            let random = try await chat.addChannel("random")
            let first = try await chat.send("first in random", to: random.id)
            #expect(first.channelID == random.id)
            #expect(try await chat.channels().map(\.slug) == ["general", "random"])
            // The message in random carries that channel's UUID in capitals (the app's encoder):
            // it stays out of general's list.
            let inGeneral = try await chat.messages(in: general)
            #expect(inGeneral.map(\.message) == ["welcome", "hello", "on the train"])
            #expect(inGeneral.map(\.author.username) == ["bob", "alice", "alice"])

            await device.relaunch(offline: true)
            chat = ChatRepository(supabase: device.client, user: user)
            #expect(try await chat.messages(in: general).map(\.id).last == offline.id)
            // The new channel's messages were never fetched: that read has nothing saved yet.
            await #expect(throws: ClientError.self) { try await chat.messages(in: random.id) }

            let messageLists: [(OfflineClient) -> ReadQuery] = [general, random.id].map { channel in
                { ChatRepository(supabase: $0, user: user).messageList(in: channel) }
            }
            try await device.drainsOnline(
                thenShowsServerAnswers: [{ ChatRepository(supabase: $0, user: user).channelList }]
                    + messageLists,
                as: session)
            #expect(
                try await chat.messages(in: general).map(\.message) == ["welcome", "hello", "on the train"])
        }
    }
}
