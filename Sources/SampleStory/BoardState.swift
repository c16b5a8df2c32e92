import OfflineEngine

/// Everything the sample's screen shows, as the client's streams last reported it.
struct BoardState: Sendable {
    /// The task list's latest snapshot.
    var snapshot: QuerySnapshot?
    /// How many snapshots came so far: a wait for the next one compares with it.
    var snapshots = 0
    /// The ids of the rows a queued write touches (the cloud marks).
    var pendingIDs: Set<String> = []
    /// How many of the user's writes wait in the queue.
    var pendingCount = 0
    /// Writes the server refused, until dismissed.
    var rejected: [RejectedMutation] = []
    var network = Connectivity.unknown
    var session = SessionState.restoring

    /// The list's refresh, if a snapshot came.
    var refresh: RefreshState? { snapshot?.refresh }

    /// The titles of the rows shown.
    var titles: [String] { rows.map(\.title) }

    /// The rows shown, as the screen reads them.
    var rows: [(id: String, title: String, done: Bool)] {
        (snapshot?.result?.rows ?? []).map { row in
            // Ids as the queue's row keys write them (UUIDs in lower case).
            (
                (row["id"]?.stringValue ?? "").lowercased(), row["title"]?.stringValue ?? "",
                row["done"] == .bool(true)
            )
        }
    }

    /// The screen as text: the Sync line, then the tasks as an aligned table.
    var rendered: [String] {
        let signedIn = session.userID != nil
        var lines = [
            "  Sync: \(SyncWords.sync(refresh, signedIn: signedIn))  ·  \(SyncWords.network(network))"
        ]
        lines.append("        done  title")
        for row in rows {
            let mark = pendingIDs.contains(row.id) ? "☁" : " "
            lines.append("     \(mark)  [\(row.done ? "x" : " ")]  \(row.title)")
        }
        if rows.isEmpty { lines.append("        (no tasks)") }
        return lines
    }
}
