import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// A table whose key the device cannot make (`bigint GENERATED ALWAYS AS IDENTITY`): offline, a
/// new row shows without its `id` until the server has made one, so the model the README
/// recommends decodes `id` as optional (and `created_at` is made on the device). The same app
/// with nothing declared keeps the reference's limit: a queued row carries only what it wrote.
@Suite("Data layers: notes keyed by the server's identity", .offCooperativePool, .timeLimit(.minutes(10)))
struct NotesDataLayerTests {
    /// The model the README recommends for a key only the server makes.
    struct Note: Decodable, Equatable {
        let id: Int?
        let body: String
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, body
            case createdAt = "created_at"
        }
    }

    /// The model as the app's author wrote it for an always-online app.
    struct StrictNote: Decodable {
        let id: Int
        let body: String
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, body
            case createdAt = "created_at"
        }
    }

    struct NotesRepository {
        let supabase: OfflineClient

        var all: ReadQuery { supabase.from("notes").select("id,body,created_at").order("id") }

        func notes() async throws -> [Note] { try await all.execute().value }

        func add(_ body: String) async throws {
            try await supabase.from("notes").insert(["body": body]).execute()
        }
    }

    static let schema =
        [
            """
            CREATE TABLE public.notes (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                user_id uuid NOT NULL DEFAULT auth.uid(),
                body text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now())
            """
        ] + SupabaseDatabase.rowsOwnedByTheirUser("notes")

    @Test(
        "offline, a new note shows without its id (decoded as optional) and with the device's time; after the drain the server's id comes"
    )
    func identityKey() async throws {
        let tables = ["notes": TableSettings(madeOnDevice: ["created_at": .now])]
        try await AppDevice.signedIn(tables: tables, database: Self.schema) { device, _, session in
            try await NotesRepository(supabase: device.client).add("first")
            #expect(try await NotesRepository(supabase: device.client).notes().map(\.id) == [1])

            await device.goOffline()
            try await NotesRepository(supabase: device.client).add("second")
            var notes = try await NotesRepository(supabase: device.client).notes()
            #expect(notes.map(\.body) == ["first", "second"])
            #expect(notes.map(\.id) == [1, nil], "the server has not made its id yet")

            await device.relaunch(offline: true)
            notes = try await NotesRepository(supabase: device.client).notes()
            #expect(notes.map(\.id) == [1, nil])

            try await device.drainsOnline(
                thenShowsServerAnswers: [{ NotesRepository(supabase: $0).all }], as: session)
            notes = try await NotesRepository(supabase: device.client).notes()
            #expect(notes.map(\.id) == [1, 2])
        }
    }

    @Test(
        "with nothing declared, the reference's limit holds: a queued row carries only what it wrote, and a strict model fails on it until the drain"
    )
    func nothingDeclared() async throws {
        try await AppDevice.signedIn(tables: [:], database: Self.schema) { device, _, session in
            let list = NotesRepository(supabase: device.client).all
            _ = try await list.fetch()
            await device.goOffline()
            try await NotesRepository(supabase: device.client).add("offline")
            let shown = try await list.execute()
            #expect(shown.rows.last == ["body": "offline"], "only the column it wrote")
            #expect(throws: DecodingError.self) {
                _ = try QueryResult(rows: shown.rows).decode([StrictNote].self)
            }

            try await device.drainsOnline(
                thenShowsServerAnswers: [{ NotesRepository(supabase: $0).all }], as: session)
            let strict: [StrictNote] = try await NotesRepository(supabase: device.client).all.execute().value
            #expect(strict.map(\.body) == ["offline"])
        }
    }
}
