/// One feed being followed: whether it is subscribed, and the changes it sent before it was,
/// held until it is (a feed sends nothing made while it was not subscribed, so "subscribed"
/// also fetches the tables' lists again).
struct FeedFollowing: Sendable {
    let tables: [TableID]
    private(set) var isSubscribed = false
    private var held: [RowChange] = []

    init(tables: [TableID]) {
        self.tables = tables
    }

    /// Holds a change sent while not subscribed.
    mutating func hold(_ change: RowChange) {
        held.append(change)
    }

    /// The feed is subscribed: returns the changes held until now, oldest first. `false` in
    /// `wasDown` when it was subscribed already (a repeated event).
    mutating func subscribe() -> (held: [RowChange], wasDown: Bool) {
        defer {
            held = []
            isSubscribed = true
        }
        return (held, !isSubscribed)
    }

    /// The feed lost its connection; `true` when it was subscribed.
    mutating func disconnect() -> Bool {
        defer { isSubscribed = false }
        return isSubscribed
    }
}
