import Foundation
import OfflineEngine
import OfflineEngineTesting

/// `follow`: changes from a feed laid into 100 live lists of 1,000 rows (one reader each),
/// against the same changes made as accepted online writes on a client set up the same way, in
/// the same process: the rate of each, and the time from a change arriving to its list's reader
/// seeing it. Each change inserts a row into one list (keyed above the lists' rows), so a reader
/// reports a change by the id at the end of its list.
enum FollowBenchmark {
    private static let listCount = 100
    private static let rowsPerList = 1_000
    private static let changeCount = count("FOLLOW_CHANGES", default: 2_000)
    private static let latencyCount = count("FOLLOW_LATENCY_CHANGES", default: 500)

    /// A count from the environment, for a quicker run.
    private static func count(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? value
    }

    static func run() async throws {
        let viaFeed = try await Setup()
        let feed = AsyncStream.makeStream(of: ChangeFeedEvent.self)
        let follows = Task { try await viaFeed.client.follow(changes: feed.stream, tables: ["items"]) }
        feed.continuation.yield(.subscribed)
        for try await status in viaFeed.client.syncStatus where status.disconnectedFeeds.isEmpty { break }
        var readers = await viaFeed.startReaders()
        let viaWrites = try await Setup()
        readers += await viaWrites.startReaders()

        print("follow: lists loaded")
        var started = ContinuousClock.now
        for id in 1...changeCount { feed.continuation.yield(.change(.insert(row(id), into: "items"))) }
        _ = await viaFeed.sightings.waitUntilSeen(changeCount, by: 1)
        let feedRate = Double(changeCount) / seconds(since: started)

        started = ContinuousClock.now
        for id in 1...changeCount { _ = try await viaWrites.client.from("items").insert(row(id)).execute() }
        _ = await viaWrites.sightings.waitUntilSeen(changeCount, by: 1)
        let writeRate = Double(changeCount) / seconds(since: started)

        var feedLatencies = [Double]()
        var writeLatencies = [Double]()
        for id in (changeCount + 1)...(changeCount + latencyCount) {
            let arrived = ContinuousClock.now
            feed.continuation.yield(.change(.insert(row(id), into: "items")))
            feedLatencies.append(milliseconds(await viaFeed.sightings.waitUntilSeen(id, by: 1) - arrived))
            _ = try await viaWrites.client.from("items").insert(row(id)).execute()
            let returned = ContinuousClock.now
            writeLatencies.append(milliseconds(await viaWrites.sightings.waitUntilSeen(id, by: 1) - returned))
        }
        feed.continuation.finish()
        try await follows.value
        for reader in readers { reader.cancel() }
        await viaFeed.close()
        await viaWrites.close()
        print(
            #"{"bench":"follow.changes","value":\#(Int(feedRate)),"unit":"changes/s","#
                + #""baseline":\#(Int(writeRate)),"ratio":\#(format(feedRate / max(writeRate, 1))),"#
                + #""lists":\#(listCount),"rows_per_list":\#(rowsPerList),"changes":\#(changeCount),"#
                + #""baseline_kind":"the same inserts as accepted online writes, one after another, "#
                + #"answered at once by a transport with no table behind it"}"#)
        for (name, fraction) in [("p50", 0.5), ("p99", 0.99)] {
            let value = feedLatencies.percentile(fraction)
            let base = writeLatencies.percentile(fraction)
            print(
                #"{"bench":"follow.change_to_reader_\#(name)","value":\#(format(value)),"unit":"ms","#
                    + #""baseline":\#(format(base)),"ratio":\#(format(value / max(base, 0.000_001))),"#
                    + #""changes":\#(latencyCount),"origin":"the change arriving in the feed","#
                    + #""baseline_kind":"an accepted online write, from execute() returning"}"#)
        }
    }

    /// A row of list `id % listCount`, keyed above the lists' own rows.
    private static func row(_ id: Int) -> Row {
        ["id": .number(JSONNumber(id)), "group": .number(JSONNumber(id % listCount)), "title": "changed"]
    }

    /// A client with the lists cached and one reader per list, online.
    private final class Setup: Sendable {
        let client: OfflineClient
        let folder: URL
        let sightings = Sightings()

        init() async throws {
            let rows = LiveBenchmark.listRows(groups: listCount, rowsPerGroup: rowsPerList)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("follow-bench-\(UUID())")
            client = try await OfflineClient(
                configuration: Configuration(
                    url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
                    transport: AcceptingTransport(reads: InMemoryPostgREST(tables: ["items": rows]))))
            try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
        }

        /// Starts one reader per list and returns them once each shows its list fetched.
        func startReaders() async -> [Task<Void, Never>] {
            let loaded = Sightings()
            var readers = [Task<Void, Never>]()
            for group in 0..<listCount {
                let query = client.from("items").select().eq("group", value: group)
                readers.append(
                    LiveBenchmark.reader(
                        of: query, rowsPerList: rowsPerList, loaded: loaded, sightings: sightings))
            }
            _ = await loaded.waitUntilSeen(0, by: listCount)
            return readers
        }

        func close() async {
            await client.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        milliseconds(ContinuousClock.now - start) / 1_000
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
