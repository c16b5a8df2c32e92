import OfflineEngine
import Testing

/// Connectivity, errors on bad input, and closing (SPEC.md §5, §6 and §7).
@Suite("Spec scenarios: connectivity, errors, closing", .timeLimit(.minutes(10)))
struct ConnectivitySpecs {
    static let scenarios: [Scenario] = [
        Scenario(
            "on Linux with no source the state is .unknown",
            steps: [.connectivity(.unknown)]),
        Scenario(
            "disableNetwork() makes the state .offline; enableNetwork() gives it back to the sources (.unknown here)",
            steps: [.networkDown, .connectivity(.offline), .networkUp, .connectivity(.unknown)]),
        Scenario(
            ".unknown is treated as up: a write is sent at once and a read refreshes",
            tables: SpecRows.one,
            steps: [
                .connectivity(.unknown),
                .insert(["id": 2], ends: .sent),
                .live("all", .all),
                .see("all", Shows(ids: [1, 2], refresh: .idle)),
            ]),
        Scenario(
            "only a known-down network makes a refresh Paused: an unreachable server while the network is believed up stalls",
            tables: SpecRows.one,
            steps: [
                .unreachable(true),
                .live("all", .all),
                .advance(.milliseconds(300)), .advance(.milliseconds(900)), .advance(.milliseconds(2400)),
                .see("all", .stalled),
                .neverSaw("all", .paused),
                .unreachable(false),
                .advance(.seconds(5)),
                .see("all", Shows(ids: [1], refresh: .idle)),
            ]),
        Scenario(
            "an unreachable server while the network is believed up keeps a write queued, not rejected",
            steps: [
                .unreachable(true),
                .insert(["id": 1], ends: .queued),
                .rejected([]),
                .advance(.zero),
                .unreachable(false),
                .advance(.milliseconds(300)),
                .queue(0),
                .server("tasks", [1]),
            ]),
        Scenario(
            "malformed server JSON gets a clear error and loses nothing: the cached rows stay",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])),
                .answer(.get(), .body(200, #"[{"id": 1,"#)),
                .live("all", .all),
                .sent(.get(), 2),
                .see("all", Shows(ids: [1], fromCache: true, refresh: .refreshing)),
                .advance(.milliseconds(300)),
                .see("all", Shows(ids: [1], refresh: .idle)),
            ]),
        Scenario(
            "malformed JSON answering a write keeps the write queued",
            steps: Step.replayOfOneInsert(answeredWith: .body(201, "{not json")) + [
                .advance(.milliseconds(300)),
                .queue(0),
            ]),
        Scenario(
            "a table name with characters PostgREST rejects is a clear error for a read",
            steps: [.fetch(SpecRead("bad table;"), nil), .sent(.all, 0)]),
        Scenario(
            "a call after close() fails with a closed error",
            tables: SpecRows.one,
            steps: [
                .fetch(.all, Shows(ids: [1])), .close, .fetch(.all, nil), .insert(["id": 2], ends: .fails),
            ]),
        Scenario(
            "close(): streams being iterated complete (they end, no error)",
            tables: SpecRows.one,
            steps: Step.liveAll + [.close, .ended("all")]),
        Scenario(
            "a stream asked for after close() fails with a closed error",
            tables: SpecRows.one,
            steps: [.close, .live("late", .all), .ended("late", throwing: "was closed")]),
        Scenario(
            "close() does not lose the queue: the writes replay on the next launch",
            diskOnly: true,
            steps: Step.queuedOffline(["id": 1]) + [
                .close,
                .relaunch,
                .networkUp,
                .queue(0),
                .server("tasks", [1]),
            ]),
        Scenario(
            "a relaunch shows the cached rows and the queued writes before any answer",
            tables: SpecRows.one, diskOnly: true,
            steps: Step.liveAll + Step.queuedOffline(["id": 2]) + [
                .relaunch,
                .sawFirst("all", Shows(ids: [1, 2], fromCache: true, pending: true)),
                .see("all", .paused),
            ]),
    ]

    @Test(arguments: SpecCase.cases(scenarios))
    func scenario(_ spec: SpecCase) async { await spec.play() }
}
