import Foundation
import OfflineEngine
import OfflineEngineTesting

/// Live-read latency: 100 readers over 10 distinct queries of 1,000 cached rows each; for 1,000
/// queued writes, the time from `execute()` returning to the last reader of the written row's
/// query receiving a snapshot that holds it. Baseline: the same fan-out of one value to 100
/// readers through plain `AsyncStream`s, in the same process.
enum LiveBenchmark {
    static let queryCount = 10
    private static let readersPerQuery = 10
    static let rowsPerQuery = 1_000
    private static let writeCount = 1_000
    static let writerCount = 8
    static let writesPerWriter = 125
    /// Rounds of concurrent writes, alternating between the client with readers and the one
    /// without; the medians are compared, so a hiccup of the machine does not decide the ratio.
    private static let rounds = 5

    /// The rows of the benchmark's lists: `rowsPerGroup` rows in each of `groups` groups (by
    /// default `rowsPerQuery` in each of `queryCount`), keyed below zero so the writes' keys never
    /// meet them. The observable models' benchmark reads the same lists, the follow benchmark
    /// more of them.
    static func listRows(groups: Int = queryCount, rowsPerGroup: Int = rowsPerQuery) -> [Row] {
        var rows = [Row]()
        for group in 0..<groups {
            for index in 0..<rowsPerGroup {
                rows.append([
                    "id": .number(JSONNumber(-(group * rowsPerGroup + index) - 1)),
                    "group": .number(JSONNumber(group)),
                    "title": .string("row \(index) of group \(group)"),
                ])
            }
        }
        return rows
    }

    static func run() async throws {
        let unobserved = try await ClientWithoutReaders()
        let (afterReturn, afterCall, concurrent, alone) = try await engineLatencies(besides: unobserved)
        await unobserved.close()
        let baseline = await baselineLatencies()
        print(
            #"{"bench":"live.concurrent_queued_writes","value":\#(Int(concurrent)),"unit":"writes/s","#
                + #""baseline":\#(Int(alone)),"ratio":\#(format(concurrent / max(alone, 1))),"#
                + #""writers":\#(writerCount),"writes":\#(writerCount * writesPerWriter),"#
                + #""rounds":\#(rounds),"readers":\#(queryCount * readersPerQuery),"#
                + #""baseline_kind":"the same writes with no live reader, median of alternating rounds"}"#)
        let measures = [
            ("write_to_last_reader", afterReturn, "from execute() returning"),
            ("call_to_last_reader", afterCall, "from execute() being called"),
        ]
        for (measure, engine, origin) in measures {
            for (name, percentile) in [("p50", 0.5), ("p99", 0.99)] {
                report(
                    measure: measure, name: name, value: engine.percentile(percentile),
                    baseline: baseline.percentile(percentile), origin: origin)
            }
        }
        try await reportModels()
    }

    /// `live.models`: observable models (issue 32) against plain `for try await` readers of the
    /// same lists, with rows as `QueryRows` and decoded.
    static func reportModels() async throws {
        for decoding in [false, true] {
            let (models, plain) = try await LiveModelsBenchmark.run(decoding: decoding)
            let (suffix, rows) = decoding ? ("_decoded", "decoded into a struct") : ("", "QueryRows")
            print(
                #"{"bench":"live.observed_models\#(suffix)","value":\#(Int(models)),"#
                    + #""unit":"writes/s","baseline":\#(Int(plain)),"ratio":\#(format(models / max(plain, 1))),"#
                    + #""writers":\#(writerCount),"writes":\#(writerCount * writesPerWriter),"rounds":\#(rounds),"#
                    + #""models":\#(queryCount * readersPerQuery),"queries":\#(queryCount),"#
                    + #""rows":"\#(rows)","#
                    + #""baseline_kind":"the same writes with 100 plain for-try-await readers, median of alternating rounds"}"#
            )
        }
    }

    private static func report(
        measure: String, name: String, value: Double, baseline base: Double, origin: String
    ) {
        print(
            #"{"bench":"live.\#(measure)_\#(name)","value":\#(format(value)),"unit":"ms","#
                + #""baseline":\#(format(base)),"ratio":\#(format(value / max(base, 0.000_001))),"#
                + #""readers":\#(queryCount * readersPerQuery),"queries":\#(queryCount),"#
                + #""rows_per_query":\#(rowsPerQuery),"writes":\#(writeCount),"#
                + #""origin":"\#(origin)","baseline_kind":"AsyncStream fan-out to 100 readers"}"#)
    }

    /// Latencies from `execute()` returning and from it being called, in milliseconds, and the
    /// median rates of queued writes from concurrent writers while the readers watch and on
    /// `unobserved`, in alternating rounds.
    private static func engineLatencies(
        besides unobserved: ClientWithoutReaders
    ) async throws -> ([Double], [Double], Double, Double) {
        let rows = listRows()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryPostgREST(tables: ["items": rows])
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
                transport: server))
        try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
        let sightings = Sightings()
        let loaded = Sightings()
        var readers = [Task<Void, Never>]()
        for group in 0..<queryCount {
            let query = client.from("items").select().eq("group", value: group)
            for _ in 0..<readersPerQuery {
                readers.append(
                    reader(of: query, rowsPerList: rowsPerQuery, loaded: loaded, sightings: sightings))
            }
        }
        _ = await loaded.waitUntilSeen(0, by: queryCount * readersPerQuery)
        await client.disableNetwork()
        var latencies = [Double]()
        var fromCall = [Double]()
        for id in 1...writeCount {
            let called = ContinuousClock.now
            let row: Row = [
                "id": .number(JSONNumber(id)), "group": .number(JSONNumber(id % queryCount)), "title": "new",
            ]
            _ = try await client.from("items").insert(row).execute()
            let returned = ContinuousClock.now
            let lastSeen = await sightings.waitUntilSeen(id, by: readersPerQuery)
            latencies.append(max(0, milliseconds(lastSeen - returned)))
            fromCall.append(max(0, milliseconds(lastSeen - called)))
        }
        var observed = [Double]()
        var alone = [Double]()
        for round in 0..<rounds {
            let firstID = writeCount + 1 + round * writerCount * writesPerWriter
            alone.append(try await concurrentWrites(on: unobserved.client, firstID: firstID))
            observed.append(try await concurrentWrites(on: client, firstID: firstID))
        }
        for reader in readers { reader.cancel() }
        await client.close()
        return (latencies, fromCall, observed.percentile(0.5), alone.percentile(0.5))
    }

    /// Queued writes per second from `writerCount` tasks writing at once, each awaiting its
    /// write before the next.
    /// A detached reader of `query`'s snapshots: it reports `0` to `loaded` once its list shows
    /// `rowsPerList` rows fetched (Idle), and each positive id at the end of its list (a row a
    /// benchmark added) to `sightings`.
    static func reader(
        of query: ReadQuery, rowsPerList: Int, loaded: Sightings, sightings: Sightings
    ) -> Task<Void, Never> {
        Task.detached {
            var announcedLoad = false
            do {
                for try await snapshot in query.snapshots() {
                    guard let rows = snapshot.result?.rows else { continue }
                    if !announcedLoad, rows.count >= rowsPerList, snapshot.refresh == .idle {
                        announcedLoad = true
                        loaded.saw(0, at: .now)
                    }
                    if let id = rows.last?["id"]?.numberValue?.intValue, id > 0 {
                        sightings.saw(id, at: .now)
                    }
                }
            } catch {
                return
            }
        }
    }

    static func concurrentWrites(on client: OfflineClient, firstID: Int) async throws -> Double {
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writerCount {
                group.addTask {
                    for index in 0..<writesPerWriter {
                        let id = firstID + writer * writesPerWriter + index
                        let row: Row = [
                            "id": .number(JSONNumber(id)), "group": .number(JSONNumber(id % queryCount)),
                            "title": "concurrent",
                        ]
                        _ = try await client.from("items").insert(row).execute()
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = milliseconds(ContinuousClock.now - started) / 1_000
        return Double(writerCount * writesPerWriter) / seconds
    }

    /// A client that no live read watches, offline, for the same concurrent writes.
    private struct ClientWithoutReaders {
        let client: OfflineClient
        let folder: URL

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-bench-\(UUID())")
            client = try await OfflineClient(
                configuration: Configuration(
                    url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
                    transport: InMemoryPostgREST(tables: ["items": []])))
            try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
            await client.disableNetwork()
        }

        func close() async {
            await client.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private static func baselineLatencies() async -> [Double] {
        let sightings = Sightings()
        var continuations = [AsyncStream<Int>.Continuation]()
        var readers = [Task<Void, Never>]()
        for _ in 0..<(queryCount * readersPerQuery) {
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            continuations.append(continuation)
            readers.append(
                Task.detached {
                    for await id in stream { sightings.saw(id, at: .now) }
                })
        }
        var latencies = [Double]()
        for id in 1...writeCount {
            let sent = ContinuousClock.now
            for continuation in continuations { continuation.yield(id) }
            let lastSeen = await sightings.waitUntilSeen(id, by: continuations.count)
            latencies.append(max(0, milliseconds(lastSeen - sent)))
        }
        for continuation in continuations { continuation.finish() }
        for reader in readers { await reader.value }
        return latencies
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

extension Array where Element == Double {
    /// The value at a percentile (0...1) of the sorted values.
    func percentile(_ fraction: Double) -> Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        let index = Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index]
    }
}
