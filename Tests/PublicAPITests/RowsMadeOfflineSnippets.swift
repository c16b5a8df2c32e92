import Foundation
import OfflineEngine

// The catalog's "Rows made offline" snippets (Sources/OfflineEngine/OfflineEngine.docc), with the
// placeholders they name as parameters; compiled, and the embed and count ones run by
// RowsMadeOfflineTests. Changes are marked "adapted".

/// "Declare what the server fills in".
func rowsMadeOfflineSettings(projectURL: URL, anonKey: String, folder: URL) -> Configuration {
    var configuration = Configuration(url: projectURL, apiKey: anonKey, storage: .directory(folder))
    configuration.tables = [
        "channels": TableSettings(key: ["id"], madeOnDevice: ["id": .uuid, "created_at": .now]),
        "likes": TableSettings(key: ["user_id", "post_id"]),
        "messages": TableSettings(
            madeOnDevice: ["id": .uuid, "created_at": .now], foreignKeys: ["profiles": "author_id"]),
    ]
    return configuration
}

/// "Embeds of one row": the message model.
struct Message: Decodable {
    struct Author: Decodable { let name: String }
    let id: UUID
    let text: String
    let author: Author
}

/// "Embeds of one row": a message written offline shows its author. Adapted: a function that
/// returns what it shows.
func rowsMadeOfflineEmbed(_ client: OfflineClient, channelID: String, userID: String) async throws
    -> [Message]
{
    let messages = client.from("messages").select("*, author:profiles!author_id(name)")
        .eq("channel_id", value: channelID)
    try await client.from("messages")
        .insert(["channel_id": .string(channelID), "author_id": .string(userID), "text": "On my way"] as Row)
        .execute()
    let shown: [Message] = try await messages.execute().value  // the new message shows its author
    return shown
}

/// "Counts": the unread badge. Adapted: a function that returns it.
func rowsMadeOfflineBadge(_ client: OfflineClient, channelID: String) async throws -> Int {
    let badge = client.from("messages").select("id", head: true, count: .exact)
        .eq("channel_id", value: channelID).eq("read", value: false)
    let unread = try await badge.execute().count ?? 0
    return unread
}

/// "Migrating a supabase-swift app". Adapted: inside a namespace (the target has a global
/// `supabase` of its own), so the global becomes a static `let`, made lazily as a global is;
/// compiled only, as it names a real URL.
enum MigratedApp {
    /// The app's Application Support folder (a placeholder here).
    static let appSupportURL = FileManager.default.temporaryDirectory

    static let supabase = OfflineClient(
        configuration: Configuration(
            url: URL(string: "https://abc.supabase.co")!, apiKey: "public-anon-key",
            storage: .directory(appSupportURL)))

    static func openTasks(matching title: String?) -> PostgrestTransformBuilder {
        var query: PostgrestFilterBuilder = supabase.from("tasks").select()
        query = query.eq("done", value: false)
        if let title { query = query.ilike("title", pattern: "%\(title)%") }
        return query.order("created_at")
    }
}
