import OfflineEngine
import Testing

/// The overlay's limits, each reproduced as written (reference/optimistic-overlay.md, "Limits").
@Suite("Spec scenarios: the overlay's limits", .timeLimit(.minutes(10)))
struct OverlayLimitsSpecs {
    private static let upper = "A0B1C2D3-0000-4000-8000-00000000000A"
    private static let lower = upper.lowercased()
    private static let three: [String: [Row]] = [
        "tasks": [["id": 1, "title": "a"], ["id": 2, "title": "b"], ["id": 3, "title": "c"]]
    ]

    static let scenarios: [Scenario] = [
        Scenario(
            "order and limit are not applied: a queued row is appended after a list's rows, past its limit",
            tables: three,
            steps: [
                .live("top", SpecRead(order: "id", limit: 2)), .see("top", ids: [1, 2], refresh: .idle),
                .networkDown,
                .insert(["id": 0, "title": "z"], ends: .queued),
                .see("top", ids: [1, 2, 0], pending: true),
            ]),
        Scenario(
            "a queued row shows on every page whose filters admit it",
            tables: three,
            steps: [
                .live("first", SpecRead(order: "id", limit: 1)), .see("first", ids: [1], refresh: .idle),
                .live("all", SpecRead(order: "id")), .see("all", ids: [1, 2, 3], refresh: .idle),
                .networkDown,
                .insert(["id": 9], ends: .queued),
                .see("first", ids: [1, 9]), .see("all", ids: [1, 2, 3, 9]),
            ]),
        Scenario(
            "an edited sort column does not move a row",
            tables: SpecRows.two,
            steps: [
                .live("byTitle", SpecRead(order: "title")), .see("byTitle", ids: [1, 2], refresh: .idle),
                .networkDown,
                .write(.update("tasks", set: ["title": "z"], where: .eq("id", 1)), ends: .queued),
                .see("byTitle", Shows("title", ["z", "b"], pending: true)),
            ]),
        Scenario(
            "the server's order returns with the next fetch",
            tables: SpecRows.two,
            steps: [
                .live("byTitle", SpecRead(order: "title")), .see("byTitle", ids: [1, 2], refresh: .idle),
                .networkDown,
                .write(.update("tasks", set: ["title": "z"], where: .eq("id", 1)), ends: .queued),
                .see("byTitle", ids: [1, 2], pending: true),
                .networkUp,
                .queue(0),
                .see("byTitle", Shows(ids: [2, 1], pending: false, refresh: .idle)),
            ]),
        Scenario(
            "a queued row carries only the columns it wrote",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .see("all", Shows("title", ["a", "-"], pending: true))
            ]),
        Scenario(
            "in a list that renames a column, a queued row shows under the name it was written with",
            tables: SpecRows.one,
            steps: [
                .live("renamed", SpecRead(columns: "id,heading:title")),
                .see("renamed", Shows("heading", ["a"], refresh: .idle)),
                .networkDown,
                .insert(["id": 2, "title": "b"], ends: .queued),
                .see("renamed", Shows("heading", ["a", "-"], pending: true)),
                .see("renamed", Shows("title", ["-", "b"])),
            ]),
        Scenario(
            "what the engine cannot evaluate touches nothing: digits equal but for leading zeros",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .eq("id", "01")), ends: .queued),
                .witness,
                .see("all", Shows("title", ["a", "b", "w"])),
            ]),
        Scenario(
            "what the engine cannot evaluate touches nothing: boolean words",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .eq("done", "f")), ends: .queued),
                .witness,
                .see("all", Shows("title", ["a", "b", "w"])),
            ]),
        Scenario(
            "such a pending UPDATE shows once it has synced and the list is fetched again",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .gt("id", 1)), ends: .queued),
                .witness,
                .see("all", Shows("title", ["a", "b", "w"])),
                .networkUp,
                .queue(0),
                .see("all", Shows("title", ["a", "x", "w"], pending: false, refresh: .idle)),
            ]),
        Scenario(
            "a JSON null is read as SQL NULL: is(column, null) matches it",
            tables: ["tasks": [["id": 1, "meta": nil, "title": "a"]]],
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .isNull("meta")), ends: .queued),
                .see("all", Shows("title", ["x"], pending: true)),
            ]),
        Scenario(
            "a JSON null is read as SQL NULL: a row written with it joins a list filtered is(column, null), until fetched",
            tables: ["tasks": [["id": 1, "meta": nil, "title": "a"]]],
            steps: [
                .live("nulls", SpecRead(where: .isNull("meta"))),
                .see("nulls", Shows(ids: [1], refresh: .idle)),
                .networkDown,
                .write(.insert("tasks", ["id": 2, "meta": nil, "title": "b"]), ends: .queued),
                .see("nulls", Shows(ids: [1, 2], pending: true)),
            ]),
        Scenario(
            "keys are read as UUIDs: a key written in capitals matches the same key in lower case",
            tables: ["tasks": [["id": .string(lower), "title": "a"]]],
            steps: Step.liveAll + [
                .networkDown,
                .write(.upsert("tasks", ["id": .string(upper), "title": "x"]), ends: .queued),
                .see("all", Shows("title", ["x"], pending: true)),
            ]),
        Scenario(
            "an online update brings in only rows a cached list holds, even when it asked for the row back",
            tables: SpecRows.one,
            steps: [
                .live("done", .done), .see("done", ids: [], refresh: .idle),
                .write(.update("tasks", set: ["done": true], where: .eq("id", 1)).selecting, ends: .sent),
                .stop("done"),
                .networkDown,
                .fetch(.done, Shows(ids: [], fromCache: true)),
                .networkUp,
                .fetch(.done, Shows(ids: [1], fromCache: false)),
            ]),
        Scenario(
            "on a table without an id column, an upsert without onConflict adds a row next to the one it replaces",
            tables: ["tags": [["name": "a", "color": "blue"]]],
            steps: [
                .live("tags", SpecRead("tags")), .see("tags", Shows("name", ["a"], refresh: .idle)),
                .networkDown,
                .write(.upsert("tags", ["name": "a", "color": "red"]), ends: .queued),
                .see("tags", Shows("color", ["blue", "red"], pending: true)),
            ]),
        Scenario(
            "an upsert that names its conflict columns replaces the row",
            tables: ["tags": [["name": "a", "color": "blue"]]],
            steps: [
                .live("tags", SpecRead("tags")), .see("tags", Shows("name", ["a"], refresh: .idle)),
                .networkDown,
                .write(.upsert("tags", ["name": "a", "color": "red"], onConflict: "name"), ends: .queued),
                .see("tags", Shows("color", ["red"], pending: true)),
            ]),
        Scenario(
            "an ignore-duplicates upsert shows as though it landed",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .networkDown,
                .write(.upsert("tasks", ["id": 1, "title": "x"], ignoreDuplicates: true), ends: .queued),
                .see("all", Shows("title", ["x"], pending: true)),
            ]),
        Scenario(
            "a list a live reader shows is fetched again when its read starts",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .serverRows("tasks", [["id": 1], ["id": 2]]),
                .live("all", .all),
                .see("all", Shows(ids: [1, 2], fromCache: false, refresh: .idle)),
                .sent(.get(), 2),
            ]),
        Scenario(
            "tip: write id yourself; a queued row lacks the columns the server fills in until fetched again",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2, "title": "b"]) + [
                .see("all", Shows("done", ["false", "-"], pending: true))
            ]),
        Scenario(
            "a table keeps at most its newest 1,000 replayed writes: past that, the oldest go whether or not every list has seen them",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])), .fetch(.open, Shows(ids: [1])),
                .networkDown,
                .insertEach(2...1_002, ends: .queued),
                // The server loses the rows: only the overlay shows them.
                .answer(.post(), .empty(201), times: 1_001),
                .networkUp,
                .queue(0),
                .networkDown,
                .fetch(.open, Shows(ids: [1] + Array(3...1_002), fromCache: true)),
            ]),
        Scenario(
            "a list cached long ago: past 1,000 newer replayed writes, a row a replayed DELETE removed reappears",
            tables: SpecRows.one,
            steps: [
                .fetch(.open, Shows(ids: [1])),
                .networkDown,
                .write(.delete("tasks", where: .eq("id", 1)), ends: .queued),
                .insertEach(2...1_001, ends: .queued),
                .answer(.post(), .empty(201), times: 1_000),
                .networkUp,
                .queue(0),
                .networkDown,
                .fetch(.open, Shows(ids: [1] + Array(2...1_001), fromCache: true)),
            ]),
        Scenario(
            "a list cached long ago still shows a replayed DELETE while fewer than 1,000 writes are newer",
            tables: SpecRows.one,
            steps: [
                .fetch(.open, Shows(ids: [1])),
                .networkDown,
                .write(.delete("tasks", where: .eq("id", 1)), ends: .queued),
                .insertEach(2...10, ends: .queued),
                .answer(.post(), .empty(201), times: 10),
                .networkUp,
                .queue(0),
                .networkDown,
                .fetch(.open, Shows(ids: Array(2...10), fromCache: true)),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
