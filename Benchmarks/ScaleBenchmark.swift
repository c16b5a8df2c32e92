import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

/// How costs grow with the queue and the cache: `execute()` offline with 0, 10k and 100k writes
/// already queued (against the store's own append at the same depth); replay of 10k writes, queued
/// 1k or 10k at a time, to a server that answers at once (against the same requests sent in a
/// plain loop through the same transport); the first snapshot of one list in a store of 50,000 rows over 500
/// lists (against reading and decoding that list from the store alone); and `scale.readers`
/// and `scale.memory` (see `ScaleReadersBenchmark`, `ScaleMemoryBenchmark`). One JSON line each,
/// then a summary.
enum ScaleBenchmark {
    private static let measuredWrites = 1_000
    /// How many writes each replay measure sends.
    private static let replayedWrites = 10_000

    /// Runs every measure, or only the one named (`enqueue`, `replay`, `startup`, `readers`,
    /// `memory`), as in `Benchmarks scale.replay`.
    static func run(only part: String? = nil) async throws {
        var summary: [(String, String)] = []
        func wanted(_ name: String) -> Bool { part == nil || part == name }
        // First, while the process has allocated nothing else: its resident size is the measure.
        if wanted("memory") { try await ScaleMemoryBenchmark.run() }
        var atZero = 0.0
        for depth in [0, 10_000, 100_000] where wanted("enqueue") {
            let measured = try await enqueueRate(alreadyQueued: depth)
            if depth == 0 { atZero = measured.engine }
            let ratio = measured.engine / max(atZero, 1)
            print(
                #"{"bench":"scale.enqueue","queued_before":\#(depth),"value":\#(Int(measured.engine)),"#
                    + #""unit":"writes/s","baseline":\#(Int(measured.store)),"#
                    + #""ratio_to_store":\#(format(measured.engine / max(measured.store, 1))),"#
                    + #""ratio_to_commit_per_row":\#(format(measured.ratioToCommitPerRow)),"#
                    + #""ratio_median_of_rounds":\#(format(measured.medianOfRounds)),"#
                    + #""commit_per_row":\#(Int(measured.commitPerRow.sameDepth)),"#
                    + #""commit_per_row_plain_file":\#(Int(measured.commitPerRow.plainFile)),"#
                    + #""commit_per_row_empty_file":\#(Int(measured.commitPerRow.emptyFile)),"rounds":\#(enqueueRounds),"#
                    + #""ratio_to_empty_queue":\#(format(ratio)),"open_ms":\#(format(measured.opened * 1_000)),"#
                    + #""baseline_kind":"Store.queue.enqueue at the same depth, 1 writer"}"#)
            summary.append(
                ("enqueue, \(depth) queued", "\(Int(measured.engine)) writes/s (\(format(ratio))x of empty)"))
        }
        if wanted("replay") {
            // Both sizes replay 10,000 writes through one store (the same commits, the same replay
            // log trimming, the same write-ahead log checkpoints); the 1k figure queues them a
            // thousand at a time, so the ratio shows what the queue's length alone costs. The two
            // run back to back in pairs, so this machine's drifting load weighs on both alike;
            // the figures and the ratio are medians of five pairs.
            var runs: [Int: [(Double, Double)]] = [:]
            var ratios: [Double] = []
            for _ in 0..<5 {
                let oneK = try await replayRate(queueLength: 1_000, total: replayedWrites)
                let tenK = try await replayRate(queueLength: 10_000, total: replayedWrites)
                runs[1_000, default: []].append(oneK)
                runs[10_000, default: []].append(tenK)
                ratios.append(tenK.0 / max(oneK.0, 1))
            }
            let ratio = ratios.percentile(0.5)
            for queueLength in [1_000, 10_000] {
                let sorted = (runs[queueLength] ?? []).sorted { $0.0 < $1.0 }
                let (engine, loop) = sorted[sorted.count / 2]
                print(
                    #"{"bench":"scale.replay","queued":\#(queueLength),"writes":\#(replayedWrites),"#
                        + #""value":\#(Int(engine)),"unit":"writes/s","#
                        + #""baseline":\#(Int(loop)),"ratio":\#(format(engine / max(loop, 1))),"#
                        + #""ratio_to_1k":\#(format(queueLength == 1_000 ? 1 : ratio)),"#
                        + #""baseline_kind":"the same requests in a plain loop through the same transport"}"#)
                summary.append(("replay, \(queueLength) queued at a time", "\(Int(engine)) writes/s"))
            }
            summary.append(
                ("replay, 10k at once against 1k at a time", "\(format(ratio))x (median of 5 pairs)"))
        }
        if wanted("startup") {
            let (first, raw) = try await startup()
            print(
                #"{"bench":"scale.startup","value":\#(format(first * 1_000)),"unit":"ms","#
                    + #""baseline":\#(format(raw * 1_000)),"ratio":\#(format(first / max(raw, 1e-9))),"#
                    + #""rows":50000,"lists":500,"#
                    + #""baseline_kind":"the store alone reading and decoding that one list"}"#)
            summary.append(("first snapshot, 50k rows over 500 lists", "\(format(first * 1_000)) ms"))
        }
        if wanted("readers") { try await ScaleReadersBenchmark.run() }
        print("scale summary:")
        for (measure, figure) in summary { print("  \(measure): \(figure)") }
    }

    // MARK: Enqueue

    /// How many rounds of `measuredWrites` each enqueue figure is made of.
    private static let enqueueRounds = 10

    /// The enqueue figures at one depth, each over all `enqueueRounds` rounds (their writes over
    /// their time).
    private struct EnqueueRate {
        var engine: Double
        var store: Double
        /// SQLite's commit per row at the store's depth (in a file set up as the store's, and in
        /// one with SQLite's defaults), and in a fresh file.
        var commitPerRow: (sameDepth: Double, plainFile: Double, emptyFile: Double)
        var ratioToCommitPerRow: Double
        /// The median of the rounds' own ratios, as the ratio was given before.
        var medianOfRounds: Double
        var opened: Double
    }

    /// `execute()` offline for `measuredWrites` inserts with `depth` writes queued before, in
    /// `enqueueRounds` rounds, each followed by SQLite's own cost (the same number of rows, one
    /// commit each, appended to a file of its own set up as the store's and filled as deep; the
    /// figures of a file with SQLite's default settings and of a fresh file are printed beside
    /// it): a round takes a fifth of a second, so the machine's drifting load weighs on a round
    /// and its baseline alike. Each figure is the rounds' writes over their time, and the ratio
    /// the engine's over SQLite's: the write-ahead log's checkpoint (about one every thousand
    /// commits) falls in an engine round or in a SQLite round as it happens, so the rounds' own
    /// ratios alternate (about 0.45 and 0.7 in turn) and their median tells which one fell more
    /// often, not the cost; over ten rounds each side pays its share of checkpoints. Then the
    /// store's own append at the same depth, and how long opening the client took.
    private static func enqueueRate(alreadyQueued depth: Int) async throws -> EnqueueRate {
        let folder = temporaryFolder("scale-enqueue")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await fill(folder, queued: depth)
        let opening = ContinuousClock.now
        let client = try await offlineClient(folder, startsOffline: true)
        let opened = StoreBenchmark.seconds(ContinuousClock.now - opening)
        // SQLite's own file, filled as deep as the store: each round's baseline appends as many
        // rows to a table of the same length, one commit each. The ratio is to a file set up as
        // the store sets up its own; one with SQLite's defaults (no auto-vacuum, whose pointer
        // map is a second page in many commits) is printed beside it.
        let raw = try RawQueueFile()
        try raw.fill(depth)
        let plain = try RawQueueFile(.plain)
        try plain.fill(depth)
        var rounds: [(engine: Double, perRow: Double, plainFile: Double, emptyFile: Double)] = []
        for round in 0..<enqueueRounds {
            // The rows are made before the clock starts, as the SQLite baseline's are: making an
            // app's row is not the engine's work.
            let rows = (0..<measuredWrites).map {
                StoreBenchmark.realisticWrite(writer: round, index: $0).rows[0]
            }
            let started = ContinuousClock.now
            for row in rows {
                _ = try await client.from("tasks").insert(row).execute()
            }
            let engine = Double(measuredWrites) / StoreBenchmark.seconds(ContinuousClock.now - started)
            let perRow = try raw.append(measuredWrites, rowsPerCommit: 1)
            let plainFile = try plain.append(measuredWrites, rowsPerCommit: 1)
            let emptyFile = try StoreBenchmark.rawSingleTransaction(
                count: measuredWrites, commitEachRow: true)
            rounds.append((engine, perRow, plainFile, emptyFile))
        }
        await client.close()
        let store = try Store.open(.directory(folder))
        // Rows of a writer of their own, after the rounds' writers.
        let writes = (0..<measuredWrites).map {
            StoreBenchmark.realisticWrite(writer: enqueueRounds, index: $0)
        }
        let storeStarted = ContinuousClock.now
        for write in writes {
            try await store.queue.enqueue(write)
        }
        let alone = Double(measuredWrites) / StoreBenchmark.seconds(ContinuousClock.now - storeStarted)
        await store.close()
        let engine = overall(rounds.map(\.engine))
        let perRow = overall(rounds.map(\.perRow))
        return EnqueueRate(
            engine: engine, store: alone,
            commitPerRow: (perRow, overall(rounds.map(\.plainFile)), overall(rounds.map(\.emptyFile))),
            ratioToCommitPerRow: engine / max(perRow, 1),
            medianOfRounds: rounds.map { $0.engine / max($0.perRow, 1) }.percentile(0.5), opened: opened)
    }

    /// The rate of rounds of as many writes each, at `rates`: all their writes over all their time.
    private static func overall(_ rates: [Double]) -> Double {
        Double(rates.count) / rates.reduce(0) { $0 + 1 / max($1, 1e-9) }
    }

    /// Queues `count` writes of the benchmark's user in the store at `folder`, 64 at a time.
    private static func fill(_ folder: URL, queued count: Int) async throws {
        guard count > 0 else { return }
        let store = try Store.open(.directory(folder))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<64 {
                group.addTask {
                    for index in stride(from: writer, to: count, by: 64) {
                        var write = StoreBenchmark.realisticWrite(writer: writer, index: index)
                        write.ownerID = user
                        try await store.queue.enqueue(write)
                    }
                }
            }
            try await group.waitForAll()
        }
        await store.close()
    }

    // MARK: Replay

    /// Replays `total` writes to a server that answers at once, `queueLength` queued at a time:
    /// one client throughout (no close between rounds, whose checkpoint would fall outside the
    /// timed windows), each round queueing its writes offline through `execute()` and timed from
    /// going online to an empty queue. The baseline sends the same kind of requests (one POST of
    /// one row each) through the same transport in a loop.
    private static func replayRate(queueLength: Int, total: Int) async throws -> (Double, Double) {
        let folder = temporaryFolder("scale-replay")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = AnswersAtOnce()
        let client = try await offlineClient(folder, transport: server)
        var replaying = Duration.zero
        for round in 0..<(total / queueLength) {
            await client.disableNetwork()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for index in stride(from: writer, to: queueLength, by: 8) {
                            let row = StoreBenchmark.realisticWrite(writer: round, index: index).rows[0]
                            _ = try await client.from("tasks").insert(row).execute()
                        }
                    }
                }
                try await group.waitForAll()
            }
            let started = ContinuousClock.now
            await client.enableNetwork()
            for try await pending in client.pendingMutationCount() where pending == 0 { break }
            replaying += ContinuousClock.now - started
        }
        await client.close()
        let engine = Double(total) / StoreBenchmark.seconds(replaying)
        guard server.posts == total else {
            throw StoreBenchmark.BenchmarkFailure(what: "replayed \(server.posts) of \(total)")
        }
        let requests = (0..<total).map { index in
            HTTPRequest(
                method: .post, url: URL(string: "https://bench.invalid/rest/v1/tasks")!,
                headers: ["Content-Type": "application/json", "Prefer": "return=minimal"],
                body: JSONText.data(
                    .array([StoreBenchmark.realisticWrite(writer: 0, index: index).rows[0].json])))
        }
        let loopServer = AnswersAtOnce()
        let loopStarted = ContinuousClock.now
        for request in requests { _ = try await loopServer.send(request) }
        let loop = Double(total) / StoreBenchmark.seconds(ContinuousClock.now - loopStarted)
        return (engine, loop)
    }

    /// A server that accepts every write at once (201 with PostgREST's `Content-Range`, no body)
    /// and counts the rows it was sent (a batched replay sends several in one request).
    private final class AnswersAtOnce: HTTPTransport {
        private let count = Mutex(0)
        var posts: Int { count.withLock { $0 } }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            var rows = 1
            if let body = request.body, case .array(let sent)? = try? JSONText.parse(body) {
                rows = sent.count
            }
            count.withLock { $0 += rows }
            return HTTPResponse(status: 201, headers: ["Content-Range": "*/*"])
        }
    }

    // MARK: Startup

    /// The first snapshot of one 100-row list of a store holding 500 such lists, and the store
    /// reading and decoding that list alone.
    private static func startup() async throws -> (Double, Double) {
        let folder = temporaryFolder("scale-startup")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rowsPerList = 100
        let store = try Store.open(.directory(folder))
        var lists: [StoredList] = []
        for list in 0..<500 {
            let rows: [Row] = (0..<rowsPerList).map { index in
                var row = StoreBenchmark.realisticWrite(writer: list, index: index).rows[0]
                row["list"] = .number(JSONNumber(list))
                return row
            }
            let query = ReadQuery(QueryDescription(table: "tasks")).eq("list", value: list).query
            lists.append(
                StoredList(
                    key: query.canonicalKey, schema: nil, table: "tasks", rows: rows, fetchedAt: Date(),
                    mark: 1,
                    isStale: false))
        }
        try await store.lists.save(lists)
        let wanted = lists[250].key
        let rawStarted = ContinuousClock.now
        _ = try await store.lists.list(key: wanted)
        let raw = StoreBenchmark.seconds(ContinuousClock.now - rawStarted)
        await store.close()
        let client = try await offlineClient(folder)
        let started = ContinuousClock.now
        for try await snapshot in client.from("tasks").select().eq("list", value: 250).snapshots()
        where snapshot.result != nil {
            break
        }
        let first = StoreBenchmark.seconds(ContinuousClock.now - started)
        await client.close()
        return (first, raw)
    }

    // MARK: Helpers

    private static let user = "7f3c2a9e-0b1d-4c5e-9a8f-123456789abc"

    private static func offlineClient(
        _ folder: URL, transport: any HTTPTransport = InMemoryPostgREST(tables: ["tasks": []]),
        startsOffline: Bool = false
    ) async throws -> OfflineClient {
        // `startsOffline`: offline from the start; a client told so only after it opened would
        // replay the queue it found meanwhile, and the enqueue measure would race that replay.
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
                networkAvailability: startsOffline ? AsyncStream { $0.yield(false) } : nil,
                transport: transport))
        await client.disableNetwork()
        try await client.signIn(AuthSession(accessToken: "bench-token", userID: user))
        return client
    }

    private static func temporaryFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
