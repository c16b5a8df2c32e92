/// How a write may reach the server.
public enum WritePolicy: Sendable, Hashable {
    /// Sent at once when the network is not known to be down and no earlier write of the same
    /// user waits; otherwise kept in the durable queue and replayed in order. The default.
    case offlineFirst
    /// Sent at once and never queued: offline it throws. An accepted write is not laid into the
    /// cache; lists show it once they are fetched again.
    case onlineOnly
}

/// What became of a write.
public enum WriteResult: Sendable, Hashable {
    /// The server accepted it; the rows it sent back (empty unless the write asked with
    /// `select()`).
    case sent([Row])
    /// It is saved on the device and will be sent when it can; it already shows in every list.
    case queued(PendingMutation)

    /// The rows the server sent back, or none when the write was queued.
    public var rows: [Row] {
        if case .sent(let rows) = self { return rows }
        return []
    }
}
