import OfflineEngine

/// Everything the sample's screen shows, as its models last reported it.
struct BoardState: Sendable {
    /// The snapshot the task list's model shows (`nil` while no list is open or read yet).
    var snapshot: QuerySnapshot?
    /// The task list's rows, from that snapshot.
    var tasks: [TaskItem] = []
    /// The ids of the rows a queued write touches (the cloud marks), from that snapshot.
    var pendingIDs = PendingRowIDs()
    /// How many of the user's writes wait in the queue.
    var pendingCount = 0
    /// Writes the server refused, until dismissed.
    var rejected: [RejectedMutation] = []
    var network = Connectivity.unknown
    var session = SessionState.restoring

    /// The list's refresh, if a snapshot came.
    var refresh: RefreshState? { snapshot?.refresh }

    /// The titles of the rows shown.
    var titles: [String] { tasks.map(\.title) }

    /// The screen as text: the Sync line, then the tasks as an aligned table.
    var rendered: [String] {
        let signedIn = session.userID != nil
        var lines = [
            "  Sync: \(SyncWords.sync(refresh, signedIn: signedIn))  ·  \(SyncWords.network(network))"
        ]
        lines.append("        done  title")
        for task in tasks {
            let mark = pendingIDs.contains(task.id) ? "☁" : " "
            lines.append("     \(mark)  [\(task.done ? "x" : " ")]  \(task.title)")
        }
        if tasks.isEmpty { lines.append("        (no tasks)") }
        return lines
    }
}
