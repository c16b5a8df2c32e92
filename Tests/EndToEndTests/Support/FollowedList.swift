import OfflineEngine

/// A task list a screen of the follow tests keeps open, chosen so that changes from the feed
/// meet each rule of how a change lands: `all` takes inserted rows in place, `open` (not done)
/// sees updates move rows in and out by its filter, and `byID` has an order, so a row joining
/// it is fetched again rather than placed.
struct FollowedList: Sendable {
    /// The list's name, in failure messages.
    let name: String
    /// Whether the order of its rows is the server's to decide (an `order`); otherwise rows are
    /// compared whatever their order.
    let isOrdered: Bool
    /// The list's query on a client.
    let query: @Sendable (OfflineClient) -> ReadQuery

    /// The three lists each device keeps open.
    static let screens = [
        FollowedList(name: "all", isOrdered: false) { $0.from("tasks").select("id,title,done") },
        FollowedList(name: "open", isOrdered: false) {
            $0.from("tasks").select("id,title,done").eq("done", value: false)
        },
        FollowedList(name: "byID", isOrdered: true) { $0.from("tasks").select("id,title,done").order("id") },
    ]

    /// Whether `shown` holds the rows of `expected` (in its order, when the list has one).
    func shows(_ shown: QueryRows?, _ expected: QueryRows) -> Bool {
        guard let shown else { return false }
        return isOrdered ? shown == expected : Set(shown) == Set(expected)
    }
}

extension Row {
    /// A task row as the follow tests' lists read it (`user_id` for the server's row-level
    /// security).
    static func task(
        _ id: Int, _ title: String, done: Bool = false, owner: String = GatewayEndToEndTests.alice
    )
        -> Row
    {
        [
            "id": .number(JSONNumber(id)), "title": .string(title), "done": .bool(done),
            "user_id": .string(owner),
        ]
    }

    /// The row's `id`, as the follow tests' tasks have integer keys.
    var taskID: Int? { self["id"]?.numberValue?.intValue }
}
