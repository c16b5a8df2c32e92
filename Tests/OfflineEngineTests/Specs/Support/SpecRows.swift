import OfflineEngine

/// The server's starting rows most scenarios share.
enum SpecRows {
    /// Two open tasks, `a` and `b`.
    static let two: [String: [Row]] = [
        "tasks": [["id": 1, "title": "a", "done": false], ["id": 2, "title": "b", "done": false]]
    ]

    /// One open task, `a`.
    static let one: [String: [Row]] = ["tasks": [["id": 1, "title": "a", "done": false]]]

    /// An open task `a` and a done task `b`.
    static let mixed: [String: [Row]] = [
        "tasks": [["id": 1, "title": "a", "done": false], ["id": 2, "title": "b", "done": true]]
    ]
}

extension SpecRead {
    /// Every task.
    static let all = SpecRead()
    /// The open tasks.
    static let open = SpecRead(where: .eq("done", false))
    /// The done tasks.
    static let done = SpecRead(where: .eq("done", true))
}

extension Step {
    /// A later queued insert (id 9, title `w`) that does show: a snapshot holding it was composed
    /// after every earlier write, so "the earlier write changed nothing" is checked on it rather
    /// than on a snapshot from before that write.
    static let witness: Step = .insert(["id": 9, "title": "w"], ends: .queued)

    /// An insert queued offline, whose replay's request, once the network is back, is answered
    /// with `answer`: one request sent, the write still queued.
    static func replayOfOneInsert(answeredWith answer: Answer) -> [Step] {
        [
            .networkDown, .insert(["id": 1], ends: .queued), .answer(.post(), answer), .networkUp,
            .sent(.post(), 1), .queue(1),
        ]
    }

    /// Opens the live read of every task, named `all`, whose first fetch is refused (500): once
    /// it sent it, the read waits on the retry schedule.
    static let firstFetchRefused: [Step] = [
        .answer(.get(), .reject(500, "XX000")), .live("all", .all), .sent(.get(), 1), .advance(.zero),
    ]

    /// The network known down, then an insert of rows into `tasks` that stays queued.
    static func queuedOffline(_ rows: Row...) -> [Step] {
        [.networkDown, .write(SpecWrite(kind: .insert, table: "tasks", rows: rows), ends: .queued)]
    }

    /// Opens the live read of every task, named `all`, and waits until it is up to date.
    static let liveAll: [Step] = [.live("all", .all), .see("all", .idle)]

    /// ``liveAll``, then `u2` signs in: the read refreshes again (Refreshing), its fetch held
    /// until released.
    static let newOwnerDuringFetch: [Step] =
        liveAll + [.answer(.get(), .hang), .signIn("u2"), .see("all", .refreshing), .release]
}
