import OfflineEngine
import Testing

/// Replay's harder answers: lost answers, a 2xx that is not PostgREST's, the owner's session,
/// retirement, and bulk requests (SPEC.md §3 and §10).
@Suite("Spec scenarios: replay's answers", .timeLimit(.minutes(10)))
struct ReplayAnswerSpecs {
    static let scenarios: [Scenario] = [
        Scenario(
            "a write whose answer was lost is not applied twice and not reported rejected",
            steps: Step.lostOnReplay(["id": 1, "title": "a"]) + Step.appliedOnceOnRetry),
        Scenario(
            "a replayed INSERT that gets 409/23505 after an interrupted attempt is treated as applied",
            steps: Step.lostOnReplay(["id": 1, "title": "a"]) + [.sent(.post(), 1)] + Step.appliedOnceOnRetry),
        Scenario(
            "the first send counts as an attempt when it was immediate: a lost immediate insert is not applied twice",
            steps: [
                .answer(.post(), .lost),
                .insert(["id": 1, "title": "a"], ends: .queued),
                .queue(0),
                .rejected([]),
                .server("tasks", [1]),
            ]),
        Scenario(
            "an INSERT without its key values whose attempt was interrupted becomes a rejected write that may have been applied",
            steps: Step.lostOnReplay(["title": "no key"]) + [
                .advance(.milliseconds(300)),
                .rejected([RejectedMutation.mayHaveBeenAppliedCode]),
                .queue(0),
                .sent(.post(), 1),
            ]),
        Scenario(
            "an INSERT without its key values whose immediate send lost its answer becomes a rejected write that may have been applied, never sent again",
            steps: [
                .answer(.post(), .lost),
                .insert(["title": "no key"], ends: .queued),
                .rejected([RejectedMutation.mayHaveBeenAppliedCode]),
                .queue(0),
                .sent(.post(), 1),
            ]),
        Scenario(
            "a 2xx settles a write only when it is PostgREST's answer: an HTML page keeps it queued",
            steps: Step.replayOfOneInsert(answeredWith: .proxyPage(200)) + Step.replayedOnFirstRetry),
        Scenario(
            "an empty body where rows were asked for keeps the write queued",
            steps: [
                .networkDown,
                .write(.insert("tasks", ["id": 1]).selecting, ends: .queued),
                .answer(.post(), .empty(201)),
                .networkUp,
                .sent(.post(), 1),
                .queue(1),
                .advance(.milliseconds(300)),
                .queue(0),
            ]),
        Scenario(
            "a 3xx keeps the write queued: nothing leaves the queue unseen",
            steps: Step.replayOfOneInsert(answeredWith: .reject(302, "redirect")) + [
                .rejected([]),
                .advance(.milliseconds(300)),
                .queue(0),
            ]),
        Scenario(
            "a request carries the session of its write's owner; if that owner is no longer signed in it is not sent",
            steps: Step.queuedOffline(["id": 1]) + [
                .signOut,
                .networkUp,
                .sent(.writes, 0),
                .signIn("u1"),
                .server("tasks", [1]),
                .sent(.post().by("u1"), 1),
                .sent(.post(), 1),
            ]),
        Scenario(
            "a cleared write is never sent",
            steps: Step.queuedOffline(["id": 1]) + [
                .clear,
                .networkUp,
                .queue(0),
                .insert(["id": 2], ends: .sent),
                .server("tasks", [2]),
                .sent(.writes, 1),
            ]),
        Scenario(
            "a write no longer queued (rejected) is not sent again",
            steps: ReplaySpecs.replaying(.reject(403, "42501")) + [
                .rejected(["42501"]),
                .insert(["id": 2], ends: .sent),
                .server("tasks", [2]),
                .sent(.post().carrying(1), 1),
            ]),
        Scenario(
            "a replayed write retires once each cached list of its table was fetched after it",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .networkUp,
                .queue(0),
                .see("all", Shows(ids: [1, 2], pending: false, refresh: .idle)),
                .serverRows("tasks", [["id": 1]]),
                .fetch(.all, Shows(ids: [1], fromCache: false)),
            ]),
        Scenario(
            "consecutive inserts of one owner into one table travel as one bulk request",
            steps: Step.queuedOffline(["id": 1]) + [
                .insert(["id": 2], ends: .queued),
                .insert(["id": 3], ends: .queued),
                .networkUp,
                .queue(0),
                .sent(.post(), 1),
                .server("tasks", [1, 2, 3]),
            ]),
        Scenario(
            "replay never changes the order: an update between two inserts splits the bulk",
            steps: Step.queuedOffline(["id": 1, "title": "a"]) + [
                .write(.update("tasks", set: ["title": "b"], where: .eq("id", 1)), ends: .queued),
                .insert(["id": 2], ends: .queued),
                .networkUp,
                .queue(0),
                .sent(.post(), 2), .sent(.patch(), 1),
                .server("tasks", [1, 2]),
            ]),
        Scenario(
            "each write of a refused batch keeps its own outcome: the batch is split until the write at fault is found",
            tables: ["tasks": [["id": 2]]],
            steps: Step.queuedOffline(["id": 1]) + [
                .insert(["id": 2], ends: .queued),
                .insert(["id": 3], ends: .queued),
                .networkUp,
                .rejected(["23505"]),
                .queue(0),
                .server("tasks", [2, 1, 3]),
            ]),
        Scenario(
            "inserts into different tables do not share a bulk request",
            tables: ["tasks": [], "projects": []],
            steps: Step.queuedOffline(["id": 1]) + [
                .write(.insert("projects", ["id": 1]), ends: .queued),
                .insert(["id": 2], ends: .queued),
                .networkUp,
                .queue(0),
                .sent(.post("tasks"), 2), .sent(.post("projects"), 1),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
