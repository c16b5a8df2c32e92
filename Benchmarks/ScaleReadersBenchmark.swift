import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

/// `scale.readers`: from `execute()` returning to the last reader of one live read seeing the
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

    /// Counts, per write id, the readers that have seen it, and wakes one waiter.
    private final class Seen: Sendable {
        private struct State {
            var counts: [Int: Int] = [:]
            var waiter: (id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)?
        }
        private let state = Mutex(State())

        func saw(_ id: Int) {
            let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.counts[id, default: 0] += 1
                guard let waiter = state.waiter, waiter.id == id, state.counts[id] ?? 0 >= waiter.count else {
                    return nil
                }
                state.waiter = nil
                return waiter.continuation
            }
            ready?.resume()
        }

        func wait(for id: Int, by count: Int) async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.counts[id] ?? 0 >= count { return true }
                    state.waiter = (id, count, continuation)
                    return false
                }
                if ready { continuation.resume() }
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
        let seen = Seen()
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
                            if last != reported { seen.saw(last) }
                            reported = last
                        }
                    } catch {}
                })
        }
        await seen.wait(for: -rows, by: count)
        await client.disableNetwork()
        var latencies: [Double] = []
        for id in 1...writes {
            _ = try await client.from("items").insert(["id": .number(JSONNumber(id)), "title": "new"] as Row)
                .execute()
            let returned = ContinuousClock.now
            await seen.wait(for: id, by: count)
            latencies.append(StoreBenchmark.seconds(ContinuousClock.now - returned) * 1_000)
        }
        for task in tasks { task.cancel() }
        await client.close()
        return latencies
    }

    private static func fanOutLatencies(readers count: Int) async -> [Double] {
        let seen = Seen()
        var continuations: [AsyncStream<Int>.Continuation] = []
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<count {
            let (stream, continuation) = AsyncStream.makeStream(
                of: Int.self, bufferingPolicy: .bufferingNewest(1))
            continuations.append(continuation)
            tasks.append(Task.detached { for await id in stream { seen.saw(id) } })
        }
        var latencies: [Double] = []
        for id in 1...writes {
            let sent = ContinuousClock.now
            for continuation in continuations { continuation.yield(id) }
            await seen.wait(for: id, by: count)
            latencies.append(StoreBenchmark.seconds(ContinuousClock.now - sent) * 1_000)
        }
        for continuation in continuations { continuation.finish() }
        for task in tasks { await task.value }
        return latencies
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
