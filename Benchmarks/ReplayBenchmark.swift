import Foundation
import OfflineEngine
import OfflineEngineTesting

/// `Benchmarks replay`: 1,000 queued writes (runs of 45 inserts into three tables in turn, each
/// followed by 5 updates or deletes: one write in ten) drained through a transport that delays each request by a round
/// trip (0, 20, 50 and 100 ms), then the same over real sockets (`LocalHTTPServer` and
/// `URLSessionTransport`) at 20 ms, and one by one (batching off) at 20 ms for comparison. Each
/// batched measure runs twice: one request at a time (the default), and with the three tables'
/// requests overlapping (`tablesInFlight: 3`).
///
/// Per delay: the drain time (from going online to an empty queue), the requests sent, writes per
/// request, writes per round trip (the writes over the drain time counted in round trips), and
/// the ratio of the drain time to the lower bound: the requests the batch cap allows (each run of
/// writes of one kind into one table in batches of the cap) times the delay. Requests that
/// overlap can drain below that bound.
enum ReplayBenchmark {
    /// How many writes are queued.
    static let writes = 1_000
    /// The tables the inserts go to, a run at a time.
    static let tables = ["a", "b", "c"]
    /// How many inserts a run holds before the next table's.
    static let runLength = 45

    /// One queued write of the workload.
    enum Write {
        case insert(table: String, id: Int)
        case update(table: String, id: Int)
        case delete(table: String, id: Int)

        var isInsert: Bool {
            if case .insert = self { return true }
            return false
        }
        var table: String {
            switch self {
            case .insert(let table, _), .update(let table, _), .delete(let table, _): return table
            }
        }
    }

    /// The workload: blocks of `runLength` inserts into each table in turn, each followed by
    /// updates and deletes (one in three) of rows inserted earlier into that table, one write in
    /// ten in all.
    static func workload() -> [Write] {
        var result: [Write] = []
        var nextID = 1
        var inserted: [String: [Int]] = [:]
        var block = 0
        while result.count < writes {
            let table = tables[block % tables.count]
            for _ in 0..<runLength where result.count < writes {
                result.append(.insert(table: table, id: nextID))
                inserted[table, default: []].append(nextID)
                nextID += 1
            }
            let rows = inserted[table] ?? []
            for step in 0..<(runLength / 9) where result.count < writes {
                let target = rows[(step * 7 + block) % rows.count]
                result.append(
                    step % 3 == 2 ? .delete(table: table, id: target) : .update(table: table, id: target))
            }
            block += 1
        }
        return result
    }

    /// The fewest requests the batch cap allows for `workload`: each run of writes of one kind
    /// into one table (inserts; updates, all making the same change here; deletes) in batches of
    /// `maxRows` (at most 100 keys for updates and deletes).
    static func lowerBound(_ workload: [Write], maxRows: Int) -> Int {
        var requests = 0
        var open = 0
        var openKind: String?
        for write in workload {
            let kind: String
            switch write {
            case .insert: kind = "insert " + write.table
            case .update: kind = "update " + write.table
            case .delete: kind = "delete " + write.table
            }
            let cap = write.isInsert ? maxRows : min(maxRows, 100)
            if open == 0 || open == cap || openKind != kind {
                requests += 1
                open = 0
            }
            open += 1
            openKind = kind
        }
        return requests
    }

    static func run() async throws {
        let workload = workload()
        let batching = ReplayBatching()
        let bound = lowerBound(workload, maxRows: batching.maxRows)
        let overlapping = ReplayBatching(tablesInFlight: tables.count)
        for delay in [0, 20, 50, 100] {
            for batching in [batching, overlapping] {
                try await measure(workload, delay: delay, bound: bound, sockets: false, batching: batching)
            }
        }
        for batching in [batching, overlapping] {
            try await measure(workload, delay: 20, bound: bound, sockets: true, batching: batching)
        }
        try await measure(
            workload, delay: 20, bound: lowerBound(workload, maxRows: 1), sockets: false, batching: .off)
    }

    /// Queues the workload offline, goes online, and times the drain.
    private static func measure(
        _ workload: [Write], delay: Int, bound: Int, sockets: Bool, batching: ReplayBatching
    ) async throws {
        let server = InMemoryPostgREST(tables: Dictionary(uniqueKeysWithValues: tables.map { ($0, [Row]()) }))
        let transport = RecordingTransport(wrapping: server)
        if delay > 0 { transport.setDelay(.milliseconds(delay)) }
        let drain: Duration
        if sockets {
            drain = try await LocalHTTPServer.serving(transport) { local in
                try await drainTime(
                    workload, url: local.baseURL, transport: URLSessionTransport(), batching: batching)
            }
        } else {
            drain = try await drainTime(
                workload, url: URL(string: "https://bench.invalid")!, transport: transport, batching: batching
            )
        }
        let requests = transport.requests.count
        let seconds = StoreBenchmark.seconds(drain)
        let lowerBound = Double(bound) * Double(delay) / 1_000
        let ratio = lowerBound > 0 ? String(format: "%.2f", seconds / lowerBound) : "null"
        let perRoundTrip =
            delay > 0
            ? String(format: "%.1f", Double(workload.count) * Double(delay) / 1_000 / seconds) : "null"
        print(
            #"{"bench":"replay","delay_ms":\#(delay),"transport":"\#(sockets ? "sockets" : "in-process")","#
                + #""batching":\#(batching.maxRows > 1),"tables_in_flight":\#(batching.tablesInFlight),"#
                + #""writes":\#(workload.count),"drain_s":\#(String(format: "%.3f", seconds)),"#
                + #""requests":\#(requests),"#
                + #""writes_per_request":\#(String(format: "%.1f", Double(workload.count) / Double(requests))),"#
                + #""writes_per_round_trip":\#(perRoundTrip),"#
                + #""lower_bound_requests":\#(bound),"ratio_to_lower_bound":\#(ratio)}"#)
    }

    /// The time from going online to an empty queue, for a client that queued the workload.
    private static func drainTime(
        _ workload: [Write], url: URL, transport: any HTTPTransport, batching: ReplayBatching
    ) async throws -> Duration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = Configuration(
            url: url, apiKey: "bench", storage: .directory(folder), transport: transport)
        configuration.replayBatching = batching
        let client = try await OfflineClient(configuration: configuration)
        await client.disableNetwork()
        try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
        for write in workload {
            switch write {
            case .insert(let table, let id):
                let row: Row = ["id": .number(JSONNumber(id)), "title": .string("row \(id)"), "done": false]
                _ = try await client.from(table).insert(row).execute()
            case .update(let table, let id):
                _ = try await client.from(table).update(["done": true] as Row).eq("id", value: id).execute()
            case .delete(let table, let id):
                _ = try await client.from(table).delete().eq("id", value: id).execute()
            }
        }
        let started = ContinuousClock.now
        await client.enableNetwork()
        for try await pending in client.pendingMutationCount() where pending == 0 { break }
        let drain = ContinuousClock.now - started
        await client.close()
        return drain
    }
}
