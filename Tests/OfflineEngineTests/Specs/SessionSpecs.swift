import OfflineEngine
import Testing

/// Session, owners and clearing (SPEC.md §4).
@Suite("Spec scenarios: session, owners, clearing", .timeLimit(.minutes(10)))
struct SessionSpecs {
    /// u1's write queued offline, then u2 signed in with the network back.
    private static let switched: [Step] = [
        .networkDown,
        .insert(["id": 2], ends: .queued),
        .signIn("u2"),
        .networkUp,
    ]

    static let scenarios: [Scenario] = [
        Scenario(
            "the session settles on the stored session after a relaunch",
            diskOnly: true,
            steps: [.session("u1"), .relaunch, .session("u1")]),
        Scenario(
            "the session settles signed out after a relaunch that had no session",
            user: nil, diskOnly: true,
            steps: [.session(nil), .relaunch, .session(nil)]),
        Scenario(
            "requests carry apikey and Authorization: Bearer <access token>",
            tables: SpecRows.one,
            steps: Step.liveAll + [.sent(.get().by("u1"), 1)]),
        Scenario(
            "requests carry apikey and Authorization: Bearer <api key> when signed out",
            tables: SpecRows.one, user: nil,
            steps: Step.liveAll + [.sent(.get().by("anon"), 1), .see("all", ids: [1])]),
        Scenario(
            "a different user signing in: every list is marked stale and fetched again with the new token",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .live("open", .open), .see("open", Shows(ids: [1], refresh: .idle)),
                .serverRows("tasks", [["id": 1, "done": false], ["id": 5, "done": false]]),
                .signIn("u2"),
                .see("all", Shows(ids: [1, 5], refresh: .idle)),
                .see("open", Shows(ids: [1, 5], refresh: .idle)),
                .sentAtLeast(.get().by("u2"), 2),
            ]),
        Scenario(
            "the previous user's queued writes stay in the queue and are not laid over for the new user",
            tables: SpecRows.one,
            steps: Step.liveAll + switched + [
                .see("all", Shows(ids: [1], pending: false, refresh: .idle)),
                .pending("tasks", []),
                .sent(.writes, 0),
            ]),
        Scenario(
            "the previous user's queued writes replay only under their owner",
            tables: SpecRows.one,
            steps: switched + [
                .sent(.writes, 0),
                .signIn("u1"),
                .server("tasks", [1, 2]),
                .sent(.post().by("u1"), 1),
                .sent(.post().by("u2"), 0),
            ]),
        Scenario(
            "rejected writes belong to their owner: never listed for another user",
            steps: ReplaySpecs.replaying(.reject(403, "42501")) + [
                .rejected(["42501"]),
                .signIn("u2"),
                .rejected([]),
                .signIn("u1"),
                .rejected(["42501"]),
            ]),
        Scenario(
            "replayed, unretired writes belong to their owner: never laid over for another user",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .networkDown,
                .insert(["id": 2], ends: .queued),
                .answer(.post(), .empty(201)),
                .networkUp,
                .queue(0),
                .signIn("u2"),
                .networkDown,
                .fetch(.all, nil),
            ]),
        Scenario(
            "after signing out, the signed-out user's writes are not laid over",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .see("all", ids: [1, 2]),
                .signOut,
                .pending("tasks", []),
                .see("all", Shows(pending: false)),
                .neverSaw("all", Shows(ids: [1, 2], pending: false)),
            ]),
        Scenario(
            "clearLocalData() wipes the cached lists",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .clear,
                .networkDown,
                .fetch(.all, nil),
            ]),
        Scenario(
            "clearLocalData() wipes the queue",
            steps: [
                .networkDown, .insert(["id": 1], ends: .queued), .queue(1), .clear, .queue(0),
                .pending("tasks", []),
            ]),
        Scenario(
            "clearLocalData() wipes the rejected writes",
            steps: ReplaySpecs.replaying(.reject(403, "42501")) + [
                .rejected(["42501"]), .clear, .rejected([]),
            ]),
        Scenario(
            "clearLocalData() wipes the stored session",
            diskOnly: true,
            steps: [.session("u1"), .clear, .relaunch, .session(nil)]),
        Scenario(
            "clearLocalData() wipes the replay log: a replayed write no longer shows",
            tables: SpecRows.one,
            steps: Step.queuedOffline(["id": 2]) + [
                .answer(.post(), .empty(201)),
                .networkUp,
                .queue(0),
                .clear,
                .fetch(.all, Shows(ids: [1], fromCache: false, pending: false)),
            ]),
        Scenario(
            "clearLocalData() wipes everything across a relaunch: the queue stays empty",
            diskOnly: true,
            steps: [
                .networkDown, .insert(["id": 1], ends: .queued), .clear, .relaunch, .queue(0),
                .networkUp, .signIn("u1"), .insert(["id": 2], ends: .sent), .server("tasks", [2]),
            ]),
        Scenario(
            "signing out keeps nothing of the session for the next launch",
            diskOnly: true,
            steps: [.signOut, .session(nil), .relaunch, .session(nil)]),
        Scenario(
            "a cache with rows passes to the new owner with its rows kept until fetched again",
            tables: SpecRows.one,
            steps: Step.newOwnerDuringFetch + [
                .see("all", Shows(ids: [1], fromCache: false, refresh: .idle))
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
