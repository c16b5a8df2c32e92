extension SupabaseDatabase {
    /// The statements a Supabase project writes for a table whose rows each user sees and
    /// writes only their own of (by `user_id`): row-level security on, one policy, the grants.
    static func rowsOwnedByTheirUser(_ table: String) -> [String] {
        [
            "ALTER TABLE public.\(table) ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY own_rows ON public.\(table) USING (auth.uid() = user_id) WITH CHECK (auth.uid() = user_id)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON public.\(table) TO authenticated",
        ]
    }
}
