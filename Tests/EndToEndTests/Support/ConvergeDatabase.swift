import Foundation

extension SupabaseDatabase {
    /// The converge soak's table, `notes`, each user's own (row-level security by `user_id`),
    /// and `note_history`, where a trigger writes every change in the order the server applied
    /// it, with the user whose token made it.
    static let convergeSchema =
        [
            """
            CREATE TABLE public.notes (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL,
                device text NOT NULL,
                n integer NOT NULL,
                value text NOT NULL
            )
            """,
            """
            CREATE TABLE public.note_history (
                seq bigserial PRIMARY KEY,
                id uuid NOT NULL,
                op text NOT NULL,
                value text,
                user_id uuid NOT NULL,
                by_user uuid
            )
            """,
            """
            CREATE FUNCTION public.log_note() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    INSERT INTO public.note_history (id, op, value, user_id, by_user)
                    VALUES (OLD.id, TG_OP, NULL, OLD.user_id, auth.uid());
                    RETURN OLD;
                END IF;
                INSERT INTO public.note_history (id, op, value, user_id, by_user)
                VALUES (NEW.id, TG_OP, NEW.value, NEW.user_id, auth.uid());
                RETURN NEW;
            END $$
            """,
            """
            CREATE TRIGGER note_history AFTER INSERT OR UPDATE OR DELETE ON public.notes
            FOR EACH ROW EXECUTE FUNCTION public.log_note()
            """,
        ] + rowsOwnedByTheirUser("notes")

    /// Every note the server holds, whoever owns it: `id`, `user_id`, `value`.
    func notes() throws -> [[String?]] {
        try admin.execute("SELECT id::text, user_id::text, value FROM public.notes")
    }

    /// Every change to the notes, in the order the server applied them: `id`, `op`, `value`,
    /// `user_id`, `by_user`.
    func noteHistory() throws -> [[String?]] {
        try admin.execute(
            "SELECT id::text, op, value, user_id::text, by_user::text FROM public.note_history ORDER BY seq")
    }
}
