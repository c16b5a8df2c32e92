import OfflineEngine
import Testing

/// How the overlay matches rows: the table of effects per write and the filters it evaluates
/// (reference/optimistic-overlay.md, "How rows are matched").
@Suite("Spec scenarios: how rows are matched", .timeLimit(.minutes(10)))
struct OverlayMatchingSpecs {
    static let scenarios: [Scenario] = [
        Scenario(
            "INSERT: its rows join every list whose filters may admit them, after the list's own rows",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .live("open", .open), .see("open", ids: [1, 2], refresh: .idle),
                .live("done", .done), .see("done", ids: [], refresh: .idle),
                .networkDown,
                .insert(["id": 0, "done": false], ends: .queued),
                .see("all", ids: [1, 2, 0]), .see("open", ids: [1, 2, 0]),
                .see("done", Shows(ids: [], pending: false)),
            ]),
        Scenario(
            "UPSERT: merged into the row with the same key",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.upsert("tasks", ["id": 1, "title": "x"]), ends: .queued),
                .see("all", Shows("title", ["x", "b"], pending: true)),
                .see("all", ids: [1, 2]),
            ]),
        Scenario(
            "UPSERT: merged into the row with the same onConflict columns",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.upsert("tasks", ["title": "a", "done": true], onConflict: "title"), ends: .queued),
                .see("all", Shows("done", ["true", "false"], pending: true)),
                .see("all", ids: [1, 2]),
            ]),
        Scenario(
            "UPSERT: otherwise it joins as an insert",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.upsert("tasks", ["id": 3, "title": "c"]), ends: .queued),
                .see("all", ids: [1, 2, 3], pending: true),
            ]),
        Scenario(
            "UPDATE: patches the rows its filter provably matches",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .eq("id", 2)), ends: .queued),
                .see("all", Shows("title", ["a", "x"], pending: true)),
            ]),
        Scenario(
            "UPDATE: moves a row out of a list as its membership changes",
            tables: SpecRows.two,
            steps: [
                .live("open", .open), .see("open", ids: [1, 2], refresh: .idle),
                .networkDown,
                .write(.update("tasks", set: ["done": true], where: .eq("id", 1)), ends: .queued),
                .see("open", ids: [2], pending: true),
            ]),
        Scenario(
            "UPDATE: moves a row into a list as its membership changes",
            tables: SpecRows.mixed,
            steps: Step.liveAll + [
                .live("done", .done), .see("done", ids: [2], refresh: .idle),
                .networkDown,
                .write(.update("tasks", set: ["done": true], where: .eq("id", 1)), ends: .queued),
                .see("done", Shows(pending: true, includes: [1, 2])),
            ]),
        Scenario(
            "DELETE: removes the rows its filter provably matches",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.delete("tasks", where: .eq("id", 1)), ends: .queued),
                .see("all", ids: [2], pending: true),
            ]),
        Scenario(
            "the library evaluates in",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.delete("tasks", where: .in("id", [1, 2])), ends: .queued),
                .see("all", ids: [], pending: true),
            ]),
        Scenario(
            "the library evaluates neq",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .neq("id", 1)), ends: .queued),
                .see("all", Shows("title", ["a", "x"], pending: true)),
            ]),
        Scenario(
            "the library evaluates is, with Postgres's rules for nulls",
            tables: ["tasks": [["id": 1, "title": nil], ["id": 2, "title": "b"]]],
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .isNull("title")), ends: .queued),
                .see("all", Shows("title", ["x", "b"], pending: true)),
            ]),
        Scenario(
            "Postgres's rules for nulls: neq never matches a NULL",
            tables: ["tasks": [["id": 1, "title": nil], ["id": 2, "title": "b"]]],
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .neq("title", "b")), ends: .queued),
                .witness,
                .see("all", Shows("title", ["null", "b", "w"])),
            ]),
        Scenario(
            "anything else is unknown, and unknown admits a new row into a list, so your own row is never hidden",
            tables: SpecRows.two,
            steps: [
                .live("a", SpecRead(where: .like("title", "a%"))), .see("a", ids: [1], refresh: .idle),
                .networkDown,
                .insert(["id": 3, "title": "zz"], ends: .queued),
                .see("a", ids: [1, 3], pending: true),
            ]),
        Scenario(
            "unknown never lets a queued UPDATE touch a row",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .gt("id", 0)), ends: .queued),
                .witness,
                .see("all", Shows("title", ["a", "b", "w"])),
            ]),
        Scenario(
            "unknown never lets a queued DELETE touch a row",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.delete("tasks", where: .like("title", "%")), ends: .queued),
                .witness,
                .see("all", ids: [1, 2, 9]),
            ]),
        Scenario(
            "a row is recognized by the primary key set with primaryKey",
            tables: ["tags": [["name": "a", "color": "blue"]]], primaryKeys: ["tags": ["name"]],
            steps: [
                .live("tags", SpecRead("tags")), .see("tags", Shows("name", ["a"], refresh: .idle)),
                .networkDown,
                .write(.upsert("tags", ["name": "a", "color": "red"]), ends: .queued),
                .see("tags", Shows("color", ["red"], pending: true)),
                .pending("tags", ["a"]),
            ]),
        Scenario(
            "a row is recognized by id unless another key is set",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.upsert("tasks", ["id": 2, "title": "x"]), ends: .queued),
                .see("all", Shows("title", ["a", "x"], pending: true)),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
