import OfflineEngine
import Testing

/// Changes from other devices, through `follow(changes:tables:)` (SPEC.md §9).
@Suite("Spec scenarios: changes from other devices", .timeLimit(.minutes(10)))
struct FeedSpecs {
    /// The open tasks read live, the feed followed and subscribed, and the refetch it caused done.
    private static let following: [Step] = [
        .live("open", .open), .see("open", Shows(ids: [1, 2], refresh: .idle)),
        .follow(["tasks"]),
        .feed(.subscribed),
        .sent(.get(), 2),
        .see("open", Shows(ids: [1, 2], refresh: .idle)),
    ]

    static let scenarios: [Scenario] = [
        Scenario(
            "a change is laid into the cached lists whose filters admit it, without a fetch",
            tables: SpecRows.two,
            steps: following + [
                // The server holds what the feed reports, as it would: a refetch agrees.
                .serverRows(
                    "tasks",
                    SpecRows.two["tasks"]! + [
                        ["id": 3, "title": "c", "done": true], ["id": 4, "title": "d", "done": false],
                    ]),
                .feed(.change(.insert(["id": 3, "title": "c", "done": true], into: "tasks"))),
                .feed(.change(.insert(["id": 4, "title": "d", "done": false], into: "tasks"))),
                .see("open", Shows(ids: [1, 2, 4], pending: false, refresh: .idle)),
                .sent(.get(), 2),
            ]),
        Scenario(
            "a deleted row is removed by key from every list",
            tables: SpecRows.two,
            steps: following + [
                .live("all", .all), .see("all", Shows(ids: [1, 2], refresh: .idle)),
                .serverRows("tasks", [["id": 1, "title": "a", "done": false]]),
                .feed(.change(.delete(["id": 2], from: "tasks"))),
                .see("open", ids: [1]),
                .see("all", ids: [1]),
            ]),
        Scenario(
            "an updated row that stops matching a list's filters leaves it",
            tables: SpecRows.two,
            steps: following + [
                .serverRows(
                    "tasks",
                    [["id": 1, "title": "a", "done": true], ["id": 2, "title": "b", "done": false]]),
                .feed(.change(.update(["id": 1, "title": "a", "done": true], old: ["id": 1], in: "tasks"))),
                .see("open", ids: [2]),
            ]),
        Scenario(
            "where the engine cannot tell, a change marks the lists stale and they are fetched again",
            tables: SpecRows.two,
            steps: [
                .live("a", SpecRead(where: .like("title", "a%"))), .see("a", Shows(ids: [1], refresh: .idle)),
                .follow(["tasks"]),
                .feed(.subscribed),
                .sent(.get(), 2),
                .serverRows("tasks", [["id": 1, "title": "a"], ["id": 2, "title": "ab"]]),
                .feed(.change(.update(["id": 2, "title": "ab"], old: ["id": 2], in: "tasks"))),
                .sent(.get(), 3),
                .see("a", Shows(ids: [1, 2], refresh: .idle)),
            ]),
        Scenario(
            "a change stays under the user's pending writes",
            tables: SpecRows.two,
            steps: following + [
                .networkDown,
                .write(.update("tasks", set: ["title": "mine"], where: .eq("id", 1)), ends: .queued),
                .serverRows(
                    "tasks",
                    [
                        ["id": 1, "title": "theirs", "done": false], ["id": 2, "title": "b", "done": false],
                        ["id": 9, "title": "new", "done": false],
                    ]),
                .feed(
                    .change(
                        .update(["id": 1, "title": "theirs", "done": false], old: ["id": 1], in: "tasks"))),
                .feed(.change(.insert(["id": 9, "title": "new", "done": false], into: "tasks"))),
                .see("open", Shows(ids: [1, 2, 9], pending: true)),
                .see("open", Shows("title", ["mine", "b", "new"])),
            ]),
        Scenario(
            "a (re)subscription fetches the table's live lists again so no gap is silent",
            tables: SpecRows.two,
            steps: following + [
                .feed(.disconnected),
                .serverRows(
                    "tasks",
                    [["id": 1, "done": false], ["id": 2, "done": false], ["id": 3, "done": false]]),
                .feed(.subscribed),
                .sent(.get(), 3),
                .see("open", Shows(ids: [1, 2, 3], refresh: .idle)),
            ]),
        Scenario(
            "a change moves the table's mark like a write: an older answer gets the change laid over it",
            tables: SpecRows.two,
            steps: following + [
                // The fetch the resubscription asks for is answered before the delete, and
                // arrives after it; the server has deleted the row by then, as a real one has.
                .answer(.get(), .late),
                .feed(.disconnected), .feed(.subscribed),
                .sent(.get(), 3),
                .serverRows("tasks", SpecRows.one["tasks"]!),
                .feed(.change(.delete(["id": 2], from: "tasks"))),
                .release,
                // Refreshing until the held answer lands: Idle shows what it became.
                .see("open", Shows(ids: [1], refresh: .idle)),
            ]),
        Scenario(
            "changes to a table the feed does not carry are not laid in",
            tables: SpecRows.two,
            steps: following + [
                .serverRows("tasks", SpecRows.two["tasks"]! + [["id": 8, "done": false]]),
                .feed(.change(.insert(["id": 7, "done": false], into: "projects"))),
                .feed(.change(.insert(["id": 8, "done": false], into: "tasks"))),
                .see("open", ids: [1, 2, 8]),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
