import OfflineEngine
import Testing

/// Following the server without a change feed (SPEC.md §9): the app asks for every live read to
/// be fetched again (`refreshLiveReads()`, on return to the foreground).
@Suite("Spec scenarios: following the server without a change feed", .timeLimit(.minutes(10)))
struct PollingSpecs {
    /// The server's tasks once another device added `c`.
    static let withC: [Row] = SpecRows.two["tasks"]! + [["id": 3, "title": "c", "done": false]]

    static let scenarios: [Scenario] = [
        Scenario(
            "refreshLiveReads() fetches every live read again: a row another device added shows",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .live("open", .open), .see("open", .idle),
                .serverRows("tasks", withC),
                .refreshLiveReads,
                .see("all", Shows(ids: [1, 2, 3], refresh: .idle)),
                .see("open", Shows(ids: [1, 2, 3], refresh: .idle)),
                .sent(.get(), 4),
            ]),
        Scenario(
            "a refresh asked for while a fetch is under way is not lost to that fetch's older answer",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                // A fetch leaves and the server answers it with the rows of that moment...
                .answer(.get(), .late),
                .refreshLiveReads,
                .sent(.get(), 2),
                // ...then another device adds a row and the app asks again before it arrives.
                .serverRows("tasks", withC),
                .refreshLiveReads,
                .release,
                .see("all", Shows(ids: [1, 2, 3], refresh: .idle)),
                .sent(.get(), 3),
            ]),
        Scenario(
            "with no live read, refreshLiveReads() sends nothing",
            tables: SpecRows.two,
            steps: [.refreshLiveReads, .sent(.get(), 0)]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
