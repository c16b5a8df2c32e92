import Foundation
import OfflineEngine
import OfflineEngineTesting

/// `scale.readers`: from the `execute()` call to the last reader of one live read seeing the
/// queued write, with 1, 10, 100 and 1,000 readers and 1k and 100k cached rows, against an
/// `AsyncStream` fan-out of one value to as many readers in the same run.
enum ScaleReadersBenchmark {
    private static let writes = 100

    static func run() async throws {
        for rows in [1_000, 100_000] {
            for readers in [1, 10, 100, 1_000] {
                let engine = try await engineLatencies(readers: readers, rows: rows)
                let baseline = await fanOutLatencies(readers: readers)
                let (p50, p99) = (engine.percentile(0.5), engine.percentile(0.99))
                print(
                    #"{"bench":"scale.readers","readers":\#(readers),"rows":\#(rows),"#
                        + #""p50_ms":\#(format(p50)),"p99_ms":\#(format(p99)),"#
                        + #""baseline_p50_ms":\#(format(baseline.percentile(0.5))),"#
                        + #""baseline_p99_ms":\#(format(baseline.percentile(0.99))),"#
                        + #""ratio_p99":\#(format(p99 / max(baseline.percentile(0.99), 1e-6))),"#
                        + #""writes":\#(writes),"baseline_kind":"AsyncStream fan-out to as many readers"}"#)
            }
        }
    }

    private static func engineLatencies(readers count: Int, rows: Int) async throws -> [Double] {
        let cached: [Row] = (0..<rows).map { ["id": .number(JSONNumber(-$0 - 1)), "title": "row"] }
        let server = InMemoryPostgREST(tables: ["items": cached])
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .inMemory,
                transport: server))
        try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
        let query = client.from("items").select()
        let seen = Sightings()
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<count {
            tasks.append(
                Task.detached {
                    // Each reader reports each write it sees once.
                    var reported = Int.min
                    do {
                        for try await snapshot in query.snapshots() {
                            guard let rows = snapshot.result?.rows, snapshot.refresh == .idle else {
                                continue
                            }
                            let last = rows.last?["id"]?.numberValue?.intValue ?? 0
                            if last != reported { seen.saw(last, at: .now) }
                            reported = last
                        }
                    } catch {}
                })
        }
        _ = await seen.waitUntilSeen(-rows, by: count)
        await client.disableNetwork()
        var latencies: [Double] = []
        for id in 1...writes {
            // From the call: the readers may see the write before `execute()` returns.
            let called = ContinuousClock.now
            _ = try await client.from("items").insert(["id": .number(JSONNumber(id)), "title": "new"] as Row)
                .execute()
            let lastSeen = await seen.waitUntilSeen(id, by: count)
            latencies.append(StoreBenchmark.seconds(lastSeen - called) * 1_000)
        }
        for task in tasks { task.cancel() }
        await client.close()
        return latencies
    }

    private static func fanOutLatencies(readers count: Int) async -> [Double] {
        let seen = Sightings()
        var continuations: [AsyncStream<Int>.Continuation] = []
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<count {
            let (stream, continuation) = AsyncStream.makeStream(
                of: Int.self, bufferingPolicy: .bufferingNewest(1))
            continuations.append(continuation)
            tasks.append(Task.detached { for await id in stream { seen.saw(id, at: .now) } })
        }
        var latencies: [Double] = []
        for id in 1...writes {
            let sent = ContinuousClock.now
            for continuation in continuations { continuation.yield(id) }
            let lastSeen = await seen.waitUntilSeen(id, by: count)
            latencies.append(StoreBenchmark.seconds(lastSeen - sent) * 1_000)
        }
        for continuation in continuations { continuation.finish() }
        for task in tasks { await task.value }
        return latencies
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
