import OfflineEngine
import Testing

/// Replay: order, owners, and what each answer does to a queued write (SPEC.md §3).
@Suite("Spec scenarios: replay", .timeLimit(.minutes(10)))
struct ReplaySpecs {
    /// One write queued offline, the given answer ready for it, and the network back.
    static func replaying(_ answer: Answer) -> [Step] {
        [.networkDown, .insert(["id": 1], ends: .queued), .answer(.post(), answer), .networkUp]
    }

    /// A replayed insert refused with `status` and `code`: rejected with the server's code.
    static func rejectedOnReplay(_ label: String, _ status: Int, _ code: String) -> Scenario {
        Scenario(
            "\(label): the write is rejected with the server's code",
            steps: replaying(.reject(status, code)) + [.rejected([code]), .queue(0)])
    }

    /// A replayed insert refused with `status` and `code`: the pass stops and the retry 300 ms on
    /// applies it once.
    static func triedAgainOnReplay(_ label: String, _ status: Int, _ code: String) -> Scenario {
        Scenario(
            "\(label) stops the pass and the write is tried again",
            steps: replaying(.reject(status, code)) + Step.appliedOnceOnRetry)
    }

    static let scenarios: [Scenario] = [
        Scenario(
            "the queue replays oldest first, per owner, when the network is up",
            tables: ["tasks": [], "projects": []],
            steps: Step.projectQueuedOffline + [
                .insert(["id": 1, "project": 10], ends: .queued),
                .write(.delete("projects", where: .eq("id", 10)), ends: .queued),
                .networkUp,
                .queue(0),
                .sent(.post("projects").by("u1"), 1), .sent(.post("tasks").by("u1"), 1),
                .sent(.delete("projects").by("u1"), 1),
                .server("projects", []), .server("tasks", [1]),
            ]),
        Scenario(
            "owner-less writes are claimed by the first user who signs in",
            user: nil,
            steps: Step.queuedOffline(["id": 1]) + [
                .signIn("u1"),
                .networkUp,
                .queue(0),
                .sent(.post().by("u1"), 1),
            ]),
        Scenario(
            "owner-less writes are sent with whatever session is current",
            user: nil,
            steps: Step.queuedOffline(["id": 1]) + [
                .networkUp,
                .queue(0),
                .sent(.post().by("anon"), 1),
                .server("tasks", [1]),
            ]),
        Scenario(
            "a transport failure stops the pass; it is tried again on the refresh schedule",
            steps: Step.queuedOffline(["id": 1]) + [
                .answer(.post(), .transportFailure, times: 2),
                .networkUp,
                .advance(.milliseconds(300)), .advance(.milliseconds(900)),
                .queue(0),
                .sleeps([.milliseconds(300), .milliseconds(900)]),
                .sent(.post(), 3),
            ]),
        triedAgainOnReplay("a 408", 408, "57014"),
        triedAgainOnReplay("a 429", 429, "PGRST000"),
        triedAgainOnReplay("a 5xx", 502, "PGRST000"),
        Scenario(
            "a 503 with Retry-After is tried again after the server's wait",
            steps: replaying(.unavailable(retryAfter: 2)) + [
                .advance(.seconds(2)), .queue(0), .sleeps([.seconds(2)]), .server("tasks", [1]),
            ]),
        Scenario(
            "the replay is tried again at once when the network comes back",
            steps: Step.queuedOffline(["id": 1]) + [
                .networkUp,
                .queue(0),
                .sleeps([]),
                .server("tasks", [1]),
            ]),
        Scenario(
            "401 / JWT expired: the write is kept until the session changes, then the replay goes on",
            steps: replaying(.reject(401, "PGRST301")) + [
                .sent(.post(), 1),
                .queue(1), .rejected([]),
                .signIn("u1"),
                .queue(0),
                .sent(.post().by("u1"), 2),
                .server("tasks", [1]),
            ]),
        Scenario(
            "400: the write is rejected with the server's code and leaves the queue",
            steps: replaying(.reject(400, "PGRST102")) + [
                .rejected(["PGRST102"]), .queue(0), .server("tasks", []),
            ]),
        rejectedOnReplay("403/42501 (RLS)", 403, "42501"),
        rejectedOnReplay("404", 404, "42P01"),
        rejectedOnReplay("409", 409, "23503"),
        rejectedOnReplay("422", 422, "PGRST999"),
        Scenario(
            "a rejected write leaves the overlay",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .see("all", ids: [1, 2]),
                .answer(.post(), .reject(403, "42501")),
                .networkUp,
                .rejected(["42501"]),
                .see("all", Shows(ids: [1], pending: false)),
            ]),
        Scenario(
            "a rejected write stays, persisted, until the app dismisses it",
            diskOnly: true,
            steps: replaying(.reject(403, "42501")) + [
                .rejected(["42501"]),
                .relaunch,
                .rejected(["42501"]),
                .dismissRejected,
                .rejected([]),
                .relaunch,
                .rejected([]),
            ]),
        Scenario(
            "after a rejection, later writes go on",
            steps: Step.queuedOffline(["id": 1]) + [
                .insert(["id": 2], ends: .queued),
                .write(.update("tasks", set: ["title": "x"], where: .eq("id", 2)), ends: .queued),
                .answer(.post().carrying(1), .reject(403, "42501"), times: 5),
                .networkUp,
                .rejected(["42501"]),
                .queue(0),
                .sent(.patch(), 1),
                .server("tasks", [2]),
            ]),
        Scenario(
            "Retry-After is honoured up to a cap, as for reads (30 s)",
            steps: replaying(.unavailable(retryAfter: 3_600)) + [
                .advance(.seconds(30)), .queue(0), .sleeps([.seconds(30)]), .server("tasks", [1]),
            ]),
        Scenario(
            "a checking read that fails is a transient failure, never \"not applied\"",
            steps: Step.queuedOffline(["id": 1, "title": "a"]) + [
                .answer(.post(), .lost),
                .answer(.get(), .reject(500, "XX000")),
                .networkUp,
                .sent(.post(), 1),
                .advance(.milliseconds(300)),
                .sentAtLeast(.get(), 1),
                .rejected([]),
                .queue(1),
                .advance(.milliseconds(900)),
                .queue(0),
                .rejected([]),
                .server("tasks", [1]),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
