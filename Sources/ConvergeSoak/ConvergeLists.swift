import OfflineEngine

/// The lists a converge client keeps live, per user: the same queries in the client and in
/// the checker, which asks the server each one's answer.
public enum ConvergeLists {
    /// The soak's table: `id uuid`, `user_id uuid`, `device text`, `n integer`, `value text`.
    public static let table = "notes"

    /// The lists' names.
    public static let names = ["all", "recent"]

    /// The list `name` of `user`, as read on `device`: all their notes, or their ten newest on
    /// the device (a ranged read).
    public static func query(_ name: String, user: String, device: String, on client: OfflineClient)
        -> ReadQuery
    {
        let notes = client.from(table)
        switch name {
        case "device":
            return notes.select("id,n,value").eq("user_id", value: user).eq("device", value: device).order(
                "n")
        case "recent":
            return notes.select("id,device,n,value").eq("user_id", value: user).eq("device", value: device)
                .order("n", ascending: false)
                .order("id").limit(10)
        default:
            return notes.select().eq("user_id", value: user).order("id")
        }
    }
}
