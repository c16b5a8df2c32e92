import Foundation
import OfflineEngine
import PostgresGateway

/// A test's own database laid out as on Supabase: `auth.uid()` reading the request's JWT
/// claims, and a `tasks` table whose row-level security lets each user see and write only
/// their own rows, and a `journal` of writes in the order the server applied them.
struct SupabaseDatabase {
    let database: PostgresDatabase
    /// A connection as the superuser, to read what the server holds (bypassing RLS).
    let admin: PostgresConnection

    init() throws {
        database = try PostgresServer.shared().createDatabase(named: "e2e")
        admin = try database.connect()
        for statement in [
            "CREATE SCHEMA auth",
            """
            CREATE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS
            $$ SELECT nullif(current_setting('request.jwt.claims', true)::json->>'sub', '')::uuid $$
            """,
            "GRANT USAGE ON SCHEMA auth TO anon, authenticated",
            """
            CREATE TABLE public.tasks (
                id bigint PRIMARY KEY,
                user_id uuid NOT NULL DEFAULT auth.uid(),
                title text NOT NULL,
                done boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "ALTER TABLE public.tasks ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY own_rows ON public.tasks USING (auth.uid() = user_id) WITH CHECK (auth.uid() = user_id)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON public.tasks TO authenticated",
            // Writes in the order the server applied them (`seq`), for the crash test.
            """
            CREATE TABLE public.journal (
                seq bigserial NOT NULL,
                id uuid PRIMARY KEY,
                n integer NOT NULL,
                user_id uuid NOT NULL DEFAULT auth.uid()
            )
            """,
            "ALTER TABLE public.journal ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY own_rows ON public.journal USING (auth.uid() = user_id) WITH CHECK (auth.uid() = user_id)",
            "GRANT SELECT, INSERT ON public.journal TO authenticated",
            "GRANT USAGE ON SEQUENCE public.journal_seq_seq TO authenticated",
        ] {
            try admin.execute(statement)
        }
    }

    /// A fresh database, laid out further by `statements`, run as the superuser.
    init(laidOutBy statements: [String]) throws {
        try self.init()
        for statement in statements { try admin.execute(statement) }
    }

    /// A gateway over a connection of its own.
    func gateway() throws -> PostgresGateway {
        try PostgresGateway(connectionInfo: database.connectionInfo)
    }

    /// `id`, `title`, `done` of every task the server holds, by id, whoever owns them.
    func tasks() throws -> [[String?]] {
        try admin.execute("SELECT id::text, title, done::text, user_id::text FROM public.tasks ORDER BY id")
    }

    /// A signed-in session for `user`, with a token whose `sub` is `user`.
    static func session(_ user: String) -> AuthSession {
        AuthSession(accessToken: PostgresGateway.token(userID: user), userID: user)
    }
}
