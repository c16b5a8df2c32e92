import OfflineEngine
import Testing

/// The optimistic overlay's first sections: what a read returns and what it applies
/// (reference/optimistic-overlay.md, "Optimistic overlay" and "What it applies").
@Suite("Spec scenarios: the overlay", .timeLimit(.minutes(10)))
struct OverlaySpecs {
    static let scenarios: [Scenario] = [
        Scenario(
            "a read returns the cached rows with the user's writes not yet reached laid on top, oldest first",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 3, "title": "c"]) + [
                .insert(["id": 2, "title": "b"], ends: .queued),
                .see("all", Shows(ids: [1, 3, 2], pending: true)),
            ]),
        Scenario(
            "a write shows in every list at once, offline",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .live("open", .open), .see("open", ids: [1], refresh: .idle),
                .networkDown,
                .insert(["id": 2, "title": "b", "done": false], ends: .queued),
                .see("all", ids: [1, 2], pending: true), .see("open", ids: [1, 2], pending: true),
            ]),
        Scenario(
            "a write shows in every list at once, online",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .live("open", .open), .see("open", ids: [1], refresh: .idle),
                .insert(["id": 2, "title": "b", "done": false], ends: .sent),
                .see("all", ids: [1, 2]), .see("open", ids: [1, 2]),
                .sent(.get(), 2),
            ]),
        Scenario(
            "a list never loses a write between the moment it is sent and the moment the list is fetched again",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2, "title": "b"]) + [
                .see("all", ids: [1, 2], pending: true),
                .answer(.post(), .hang),
                .networkUp,
                .sent(.post(), 1),
                .see("all", ids: [1, 2]),
                .release,
                .server("tasks", [1, 2]),
                .queue(0),
                .see("all", Shows(ids: [1, 2], pending: false, refresh: .idle)),
                .neverSaw("all", Shows(ids: [1], pending: false, refresh: .refreshing)),
            ]),
        Scenario(
            "hasPendingMutations says a queued write changed the rows",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .see("all", Shows(ids: [1], pending: false)),
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .eq("id", 1)), ends: .queued),
                .see("all", Shows("title", ["x"], pending: true)),
            ]),
        Scenario(
            "hasPendingMutations is false on a list the queued write does not change",
            tables: SpecRows.one,
            steps: [
                .live("done", .done), .see("done", Shows(ids: [], refresh: .idle)),
                .networkDown,
                .insert(["id": 2, "title": "b", "done": false], ends: .queued),
                .fetch(.done, Shows(ids: [], fromCache: true, pending: false)),
                .see("done", Shows(ids: [], pending: false)),
            ]),
        Scenario(
            "each PendingMutation's rowKeys say which rows it touches",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .networkDown,
                .write(.update("tasks", set: ["title": "x"], where: .eq("id", 2)), ends: .queued),
                .insert(["id": 7], ends: .queued),
                .pending("tasks", ["2", "7"]),
            ]),
        Scenario(
            "a one-shot read returns the cached rows with the queued writes laid on top",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1], fromCache: false, pending: false)),
                .networkDown,
                .insert(["id": 2], ends: .queued),
                .fetch(.all, Shows(ids: [1, 2], fromCache: true, pending: true)),
            ]),
        Scenario(
            "it applies the writes that belong to no user yet",
            tables: SpecRows.one, user: nil,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .see("all", ids: [1, 2], pending: true)
            ]),
        Scenario(
            "another user's writes are never laid over",
            tables: SpecRows.one,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .see("all", ids: [1, 2]),
                .signIn("u2"),
                .networkUp,
                .see("all", Shows(ids: [1], pending: false, refresh: .idle)),
                .pending("tasks", []),
                .sent(.post(), 0),
            ]),
        Scenario(
            "a write a replay pass sent stays laid over until each cached list of its table is fetched again",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])), .fetch(.open, Shows(ids: [1])),
                .networkDown,
                .insert(["id": 2, "done": false], ends: .queued),
                // The server loses the row: only the overlay shows it now.
                .answer(.post(), .empty(201)),
                .networkUp, .queue(0),
                .fetch(.all, Shows(ids: [1], fromCache: false)),
                .networkDown,
                .fetch(.open, Shows(ids: [1, 2], fromCache: true)),
                .networkUp,
                .fetch(.open, Shows(ids: [1], fromCache: false)),
            ]),
        Scenario(
            "a write sent at once and accepted is patched in with the rows the server returned",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .write(.insert("tasks", ["id": 2, "title": "b"]).selecting, ends: .sent),
                .see("all", Shows(ids: [1, 2], pending: false, refresh: .idle)),
                .sent(.get(), 1),
            ]),
        Scenario(
            "a write sent at once and accepted is patched in with the rows sent when the server returned none",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .insert(["id": 2, "title": "b"], ends: .sent),
                .see("all", Shows("title", ["a", "b"], pending: false)),
                .sent(.get(), 1),
            ]),
        Scenario(
            "an accepted write is laid only into the cached lists that admit it",
            tables: SpecRows.mixed,
            steps: [
                .live("open", .open), .see("open", ids: [1], refresh: .idle),
                .live("done", .done), .see("done", ids: [2], refresh: .idle),
                .insert(["id": 3, "done": true], ends: .sent),
                .see("done", ids: [2, 3]),
                .see("open", ids: [1]),
            ]),
        Scenario(
            "an accepted write is matched by key and merged with the columns the write sent",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .write(.update("tasks", set: ["title": "x"], where: .eq("id", 1)), ends: .sent),
                .see("all", Shows("title", ["x", "b"])),
                .see("all", ids: [1, 2]),
                .sent(.get(), 1),
            ]),
        Scenario(
            "a live read with nothing cached gets a list of the written rows it admits",
            steps: [
                .answer(.get(), .hang),
                .live("all", .all),
                .sent(.get(), 1),
                .insert(["id": 5, "title": "e"], ends: .sent),
                .see("all", ids: [5]),
            ]),
        Scenario(
            "an online UPDATE filtered by something the cache cannot evaluate marks the lists stale: they fetch again",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .write(.update("tasks", set: ["title": "x"], where: .gt("id", 1)), ends: .sent),
                .sent(.get(), 2),
                .see("all", Shows("title", ["a", "x"], refresh: .idle)),
            ]),
        Scenario(
            "an online upsert without keys marks the lists stale: they fetch again",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .write(.upsert("tasks", ["title": "new"]), ends: .sent),
                .sent(.get(), 2),
                .see("all", Shows("title", ["a", "new"], refresh: .idle)),
            ]),
        Scenario(
            "an OnlineOnly write is not patched in: the list changes when it is fetched again",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .write(.insert("tasks", ["id": 2]), policy: .onlineOnly, ends: .sent),
                .networkDown,
                .fetch(.all, Shows(ids: [1], fromCache: true, pending: false)),
                .networkUp,
                .fetch(.all, Shows(ids: [1, 2], fromCache: false)),
            ]),
        Scenario(
            "an accepted upsert is merged into the cached row with the same key, without a fetch",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .write(.upsert("tasks", ["id": 1, "title": "x"]), ends: .sent),
                .see("all", Shows("title", ["x", "b"], pending: false)),
                .sent(.get(), 1),
            ]),
        Scenario(
            "an accepted DELETE removes the rows it provably matches from the cached lists, without a fetch",
            tables: SpecRows.two,
            steps: Step.liveAll + [
                .write(.delete("tasks", where: .eq("id", 1)), ends: .sent),
                .see("all", Shows(ids: [2], pending: false)),
                .sent(.get(), 1),
            ]),
        Scenario(
            "an accepted UPDATE moves a row out of a cached list whose filters no longer admit it",
            tables: SpecRows.two,
            steps: [
                .live("open", .open), .see("open", ids: [1, 2], refresh: .idle),
                .write(.update("tasks", set: ["done": true], where: .eq("id", 1)), ends: .sent),
                .see("open", Shows(ids: [2], pending: false)),
                .sent(.get(), 1),
            ]),
        Scenario(
            "a write shows in every list at once, online: even while its immediate send waits for the server",
            tables: SpecRows.one,
            steps: Step.liveAll + [
                .answer(.post(), .hang),
                .insert(["id": 2, "title": "b"], ends: .inBackground),
                .sent(.post(), 1),
                .see("all", Shows(ids: [1, 2], pending: true)),
                .release,
                .see("all", Shows(ids: [1, 2], pending: false)),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
