import OfflineEngine

/// The client the data layer is handed: with supabase-swift it was `PostgrestClient` (or
/// `SupabaseClient`); the data layer's own file did not change.
typealias Database = OfflineClient
