import OfflineEngine
import Testing

/// The refresh lifecycle's four states and its diagram (reference/refresh-lifecycle.md, "The
/// four states").
@Suite("Spec scenarios: the refresh lifecycle", .timeLimit(.minutes(10)))
struct RefreshSpecs {
    /// Four refused GETs and the waits between them: the read stalls.
    static let stall: [Step] = [
        .answer(.get(), .reject(500, "XX000"), times: 4),
        .live("all", .all),
        .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
        .see("all", .stalled),
    ]

    static let scenarios: [Scenario] = [
        Scenario(
            "each emission says how the refresh stands: Refreshing, then Idle once the server answers",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .hang),
                .live("all", .all),
                .sawFirst("all", Shows(refresh: .refreshing, noResult: true)),
                .release,
                .see("all", Shows(ids: [1], fromCache: false, pending: false, refresh: .idle)),
            ]),
        Scenario(
            "Idle: no refresh is running or waiting, the last one succeeded",
            tables: SpecRows.one,
            steps: Step.liveAll + [.sent(.get(), 1), .see("all", Shows(ids: [1], refresh: .idle))]),
        Scenario(
            "waiting for the network reads as Paused, never as a failure, and sends nothing",
            tables: SpecRows.one,
            steps: [
                .networkDown,
                .live("all", .all),
                .see("all", .paused),
                .neverSaw("all", .stalled),
                .sent(.get(), 0),
            ]),
        Scenario(
            "Paused -> Refreshing: the network comes back",
            tables: SpecRows.one,
            steps: [.networkDown, .live("all", .all), .see("all", .paused)]
                + Step.refreshing(after: .networkUp, then: Shows(ids: [1], refresh: .idle))),
        Scenario(
            "Refreshing -> Stalled: the fourth failure in a row",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .reject(500, "XX000"), times: 4),
                .live("all", .all),
                .advance(.milliseconds(300)), .advance(.milliseconds(900)),
                .sent(.get(), 3),
                .see("all", .refreshing),
                .advance(.milliseconds(2400)),
                .sent(.get(), 4),
                .see("all", .stalled),
            ]),
        Scenario(
            "Stalled -> Idle: a later attempt succeeds",
            tables: SpecRows.one,
            steps: stall + [.advance(.seconds(5)), .see("all", Shows(ids: [1], refresh: .idle))]),
        Scenario(
            "Stalled -> Paused: it fails while the network is known down",
            tables: SpecRows.one,
            steps: stall + [.networkDown, .advance(.seconds(5)), .see("all", .paused)]),
        Scenario(
            "Refreshing -> Paused: it fails while the network is known down",
            tables: SpecRows.one,
            steps: Step.pausedInRetryWait + [.neverSaw("all", .stalled)]),
        Scenario(
            "Idle -> Refreshing: a write marks the rows stale",
            tables: SpecRows.two,
            steps: Step.liveAll
                + Step.refreshing(
                    after: .write(.update("tasks", set: ["title": "x"], where: .gt("id", 1)), ends: .sent),
                    then: Shows("title", ["a", "x"], refresh: .idle))),
        Scenario(
            "Idle -> Refreshing: a clear marks the rows stale",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.refreshing(after: .clear, then: Shows(ids: [1], refresh: .idle))),
        Scenario(
            "Idle -> Refreshing: a new owner marks the rows stale, fetched again with the new token",
            tables: SpecRows.one,
            steps: Step.newOwnerDuringFetch + [
                .see("all", Shows(ids: [1], refresh: .idle)),
                .sent(.get().by("u1"), 1),
            ]),
        Scenario(
            "Stalled keeps the cached rows on screen: the rows are the device's",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .answer(.get(), .reject(500, "XX000"), times: 4),
                .live("all", .all),
                .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
                .see("all", Shows(ids: [1], fromCache: true, refresh: .stalled)),
            ]),
        Scenario(
            "Stalled.cause is the failure that stalled the refresh",
            tables: SpecRows.one,
            steps: stall + [.see("all", Shows(stalledBy: "XX000"))]),
        Scenario(
            "a later, different failure does not replace Stalled.cause",
            tables: SpecRows.one,
            steps: stall + [
                // Two different failures after the stall (the 5th and 6th attempts), so that no
                // success can end the stall before it is looked at.
                .answer(.get(), .reject(500, "YY999"), times: 2),
                .advance(.seconds(5)),
                .sent(.get(), 5),
                .advance(.seconds(15)),
                .sent(.get(), 6),
                .see("all", Shows(refresh: .stalled, stalledBy: "XX000")),
                .neverSaw("all", Shows(stalledBy: "YY999")),
            ]),
        Scenario(
            "Stalled.cause's description holds no URL, filter value or token",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .reject(500, "XX000"), times: 4),
                .live("open", SpecRead(where: .eq("title", "secret-title"))),
                .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
                .see("open", Shows(hiding: ["example.invalid", "secret-title", "token-u1", "/rest/v1"])),
            ]),
        Scenario(
            "a non-JSON 5xx body (a proxy's HTML page) fails the refresh, which keeps trying with the cached rows",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .answer(.get(), .proxyPage(520)),
                .live("all", .all),
                .sent(.get(), 2),
                .see("all", Shows(ids: [1], fromCache: true, refresh: .refreshing)),
                .advance(.seconds(1)),
                .see("all", Shows(ids: [1], fromCache: false, refresh: .idle)),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
