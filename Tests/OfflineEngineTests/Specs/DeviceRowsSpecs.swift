import OfflineEngine
import Testing

/// Rows made offline: values the device makes and the values a list's filters imply
/// (SPEC.md §8).
@Suite("Spec scenarios: rows made offline", .timeLimit(.minutes(10)))
struct DeviceRowsSpecs {
    private static let defaults = ["tasks": TableSettings(madeOnDevice: ["done": .constant(false)])]
    private static let deviceKeys = ["tasks": TableSettings(madeOnDevice: ["id": .uuid])]

    static let scenarios: [Scenario] = [
        Scenario(
            "a constant the server fills in is shown on the device only",
            tables: SpecRows.one, settings: defaults,
            steps: [
                .live("open", .open), .see("open", Shows(ids: [1], refresh: .idle)),
                .networkDown,
                .insert(["id": 2, "title": "b"], ends: .queued),
                .see("open", Shows("done", ["false", "false"], pending: true)),
                .networkUp,
                .queue(0),
                .sent(.post().carrying(2), 1),
            ]),
        Scenario(
            "a value made on the device is not sent unless declared so",
            tables: SpecRows.one, settings: defaults,
            steps: [
                .insert(["id": 2, "title": "b"], ends: .sent),
                .fetch(.all, Shows("done", ["false", "-"], fromCache: false)),
            ]),
        Scenario(
            "a key made on the device is sent: the server stores the same value",
            settings: deviceKeys,
            steps: Step.queuedOffline(["title": "x"]) + [
                .networkUp,
                .queue(0),
                .rejected([]),
                .sent(.post(), 1),
            ]),
        Scenario(
            "with a key made on the device, a lost answer is settled by reading the key back, not rejected",
            settings: deviceKeys,
            steps: Step.lostOnReplay(["title": "x"]) + [
                .advance(.milliseconds(300)),
                .queue(0),
                .rejected([]),
                .sent(.post(), 2),
            ]),
        Scenario(
            "a cached row of a list holds the values the list's own eq filters imply",
            tables: SpecRows.two,
            steps: [
                .live("titles", SpecRead(columns: "id,title", where: .eq("done", false))),
                .see("titles", Shows(ids: [1, 2], refresh: .idle)),
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .eq("done", false)), ends: .queued),
                .see("titles", Shows("title", ["x", "x"], pending: true)),
            ]),
        Scenario(
            "a write sent at once asks for the server's rows when it lacks columns the cached lists read",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .insert(["id": 2], ends: .sent),
                .sent(.post().preferring("return=representation"), 1),
            ]),
        Scenario(
            "where the app declares nothing, a queued row lacks what the server fills in (the reference's limit)",
            tables: SpecRows.one,
            steps: [
                .live("open", .open), .see("open", Shows(ids: [1], refresh: .idle)),
                .networkDown,
                .insert(["id": 2, "title": "b"], ends: .queued),
                .see("open", Shows("done", ["false", "-"], pending: true)),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
