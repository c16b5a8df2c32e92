import OfflineEngine
import Testing

/// The retry schedule, what cuts it short, the cold start and stale answers
/// (reference/refresh-lifecycle.md, from "The retry schedule" on).
@Suite("Spec scenarios: the retry schedule and old answers", .timeLimit(.minutes(10)))
struct RefreshScheduleSpecs {
    private static let failing: [Step] = [
        .answer(.get(), .reject(500, "XX000"), times: 10), .live("all", .all),
    ]

    static let scenarios: [Scenario] = [
        Scenario(
            "a failed refresh is tried again after 300 ms, 900 ms and 2.4 s, then after 5 s, 15 s and every 60 s",
            tables: SpecRows.one,
            steps: failing + [
                .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
                .advance(.seconds(5)), .advance(.seconds(15)), .advance(.seconds(60)), .advance(.seconds(60)),
                .sent(.get(), 8),
                .sleeps([
                    .milliseconds(300), .milliseconds(900), .milliseconds(2400), .seconds(5), .seconds(15),
                    .seconds(60), .seconds(60),
                ]),
            ]),
        Scenario(
            "a stalled refresh is still tried, at most a minute apart",
            tables: SpecRows.one,
            steps: failing + [
                .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
                .see("all", .stalled),
                .advance(.seconds(5)), .advance(.seconds(15)), .advance(.seconds(60)),
                .sent(.get(), 7),
                .see("all", .stalled),
            ]),
        Scenario(
            "it reads Stalled after the fourth failure, about 3.6 s in, not before",
            tables: SpecRows.one,
            steps: failing + [
                .advance(.milliseconds(300)), .advance(.milliseconds(900)),
                .sent(.get(), 3),
                .neverSaw("all", .stalled),
                .advance(.milliseconds(2400)),
                .see("all", .stalled),
            ]),
        Scenario(
            "the wait is cut short, with an attempt at once, when enableNetwork() is called",
            tables: SpecRows.one,
            steps: Step.firstFetchRefused + [.networkUp] + Step.fetchedAtOnce + [
                .sleeps([.milliseconds(300)])
            ]),
        Scenario(
            "the wait is cut short, with an attempt at once, when the network comes back",
            tables: SpecRows.one,
            steps: Step.pausedInRetryWait + [.networkUp] + Step.fetchedAtOnce),
        Scenario(
            "the wait is cut short, with an attempt at once, when a user signs in",
            tables: SpecRows.one,
            steps: Step.firstFetchRefused + [.signIn("u1")] + Step.fetchedAtOnce + [
                .sleeps([.milliseconds(300)])
            ]),
        Scenario(
            "a refresh turns the transport's retries off for transport failures: a dead network is noticed at once",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .transportFailure),
                .live("all", .all),
                .advance(.milliseconds(300)),
                .see("all", Shows(ids: [1], refresh: .idle)),
                .sleeps([.milliseconds(300)]),
            ]),
        Scenario(
            "a 503 is still retried on the transport's schedule",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .unavailable(retryAfter: nil)),
                .live("all", .all),
                .advance(.seconds(1)),
                .see("all", Shows(ids: [1], refresh: .idle)),
                .sleeps([.seconds(1)]),
                .sent(.get(), 2),
            ]),
        Scenario(
            "cold start: until the stored session is restored the refresh reads Refreshing with the cached rows",
            tables: SpecRows.one, diskOnly: true,
            steps: Step.liveAll + [
                .answer(.get(), .hang),
                .relaunch,
                .sawFirst("all", Shows(ids: [1], fromCache: true, refresh: .refreshing)),
                .release,
                .see("all", Shows(ids: [1], fromCache: false, refresh: .idle)),
                .session("u1"),
            ]),
        Scenario(
            "AuthenticatedSessionOnly: a live read of an empty table made signed out stays Refreshing",
            trust: .authenticatedSessionOnly, user: nil,
            steps: [
                .live("all", .all),
                .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
                .advance(.seconds(5)), .advance(.seconds(15)), .advance(.seconds(60)), .advance(.seconds(60)),
                .see("all", Shows(refresh: .refreshing, noResult: true)),
                .neverSaw("all", .idle),
                .neverSaw("all", .stalled),
            ]),
        Scenario(
            "AuthenticatedSessionOnly: the empty read ends once the table has rows",
            trust: .authenticatedSessionOnly, user: nil,
            steps: [
                .live("all", .all),
                .sent(.get(), 1),
                .answer(.get(), .hang),
                .advance(.milliseconds(300)),
                .sent(.get(), 2),
                .serverRows("tasks", [["id": 4]]),
                .release,
                .see("all", Shows(ids: [4], refresh: .idle)),
            ]),
        Scenario(
            "AuthenticatedSessionOnly: the empty read ends once a user signs in",
            trust: .authenticatedSessionOnly, user: nil,
            steps: [
                .live("all", .all),
                .advance(.milliseconds(300)),
                .signIn("u1"),
                .see("all", Shows(ids: [], refresh: .idle)),
                .sentAtLeast(.get().by("u1"), 1),
            ]),
        Scenario(
            "an answer whose request left before the table's last change is refused, and the refresh asks again",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .hang),
                .live("all", .all),
                .sent(.get(), 1),
                .insert(["id": 2], ends: .sent),
                .release,
                .sent(.get(), 2),
                .see("all", Shows(ids: [1, 2], refresh: .idle)),
            ]),
        Scenario(
            "an answer that left before the cache passed to a new owner is not written, and the refresh asks again",
            tables: SpecRows.one,
            steps: [
                .answer(.get(), .hang),
                .live("all", .all),
                .sent(.get().by("u1"), 1),
                .signIn("u2"),
                .release,
                .sent(.get().by("u2"), 1),
                .see("all", Shows(ids: [1], refresh: .idle)),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
