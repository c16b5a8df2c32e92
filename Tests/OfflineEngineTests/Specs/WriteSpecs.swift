import OfflineEngine
import Testing

/// Writes and their policies (SPEC.md §2, and §3's rule on what the request builder refuses).
@Suite("Spec scenarios: writes and policies", .timeLimit(.minutes(10)))
struct WriteSpecs {
    static let scenarios: [Scenario] = [
        Scenario(
            ".offlineFirst: sent at once when the network is not known down and nothing waits in the queue",
            steps: [
                .insert(["id": 1], ends: .sent),
                .queue(0),
                .server("tasks", [1]),
                .sent(.post("tasks").by("u1"), 1),
            ]),
        Scenario(
            ".offlineFirst: persisted in the queue when the network is known down",
            steps: Step.queuedOffline(["id": 1]) + [
                .queue(1),
                .sent(.writes, 0),
            ]),
        Scenario(
            ".offlineFirst: queued while an earlier write of the same owner waits, for any table",
            tables: ["tasks": [], "projects": []],
            steps: Step.projectQueuedOffline + [
                .answer(.post("projects"), .hang),
                .networkUp,
                .sent(.writes, 1),
                .insert(["id": 1, "project": 10], ends: .queued),
                .release,
                .queue(0),
                .sent(.writes, 2),
                .server("projects", [10]), .server("tasks", [1]),
            ]),
        Scenario(
            "a write never overtakes an earlier queued write of its owner",
            steps: Step.queuedOffline(["id": 1, "title": "a"]) + [
                .write(.update("tasks", set: ["title": "b"], where: .eq("id", 1)), ends: .queued),
                .write(.delete("tasks", where: .eq("id", 1)), ends: .queued),
                .networkUp,
                .queue(0),
                .sent(.post(), 1), .sent(.patch(), 1), .sent(.delete(), 1),
                .server("tasks", []),
            ]),
        Scenario(
            "a transport failure while sending at once queues the write",
            steps: Step.queuedOnSend(.transportFailure) + Step.replayedOnFirstRetry),
        Scenario(
            "a retryable status while sending at once queues the write",
            steps: Step.queuedOnSend(.reject(500, "XX000")) + [.rejected([])] + Step.replayedOnFirstRetry),
        Scenario(
            ".onlineOnly: sent at once, never queued",
            steps: [
                .answer(.post(), .unavailable(retryAfter: nil), times: 10),
                .write(.insert("tasks", ["id": 1]), policy: .onlineOnly, ends: .fails),
                .queue(0),
                .server("tasks", []),
            ]),
        Scenario(
            ".onlineOnly: offline it throws a clear error and queues nothing",
            steps: [
                .networkDown,
                .write(.insert("tasks", ["id": 1]), policy: .onlineOnly, ends: .fails),
                .queue(0),
                .sent(.writes, 0),
            ]),
        Scenario(
            ".onlineOnly: an accepted write is sent with the user's token and lands on the server",
            steps: [
                .write(.insert("tasks", ["id": 1]), policy: .onlineOnly, ends: .sent),
                .sent(.post().by("u1"), 1),
                .server("tasks", [1]),
            ]),
        Scenario(
            "execute() returns only after a queued write is durable: a crash after it returns loses nothing",
            diskOnly: true,
            steps: Step.queuedOffline(["id": 1]) + [
                .insert(["id": 2], ends: .queued),
                .relaunch,
                .queue(2),
                .networkUp,
                .queue(0),
                .server("tasks", [1, 2]),
            ]),
        Scenario(
            "a table name the request builder refuses is refused at execute(), offline, and nothing is queued",
            steps: [
                .networkDown,
                .write(.insert("bad table;", ["id": 1]), ends: .fails),
                .queue(0),
            ]),
        Scenario(
            "a table name the request builder refuses is refused at execute(), online",
            steps: [
                .write(.insert("bad table;", ["id": 1]), ends: .fails),
                .queue(0),
                .sent(.writes, 0),
            ]),
        Scenario(
            "a write that can never be sent (no rows) is refused at execute() and nothing is queued",
            steps: [
                .networkDown,
                .write(SpecWrite(kind: .insert, table: "tasks"), ends: .fails),
                .queue(0),
            ]),
        Scenario(
            "a queued write's pending mutation lists its rows for the app's marks",
            steps: Step.queuedOffline(["id": 1], ["id": 2]) + [
                .pending("tasks", ["1", "2"]),
                .networkUp,
                .pending("tasks", []),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
