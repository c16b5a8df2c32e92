import Foundation
import Observation
import OfflineEngine
import OfflineEngineTesting

/// `live.observed_models`: queued writes per second from 8 concurrent writers while 100
/// `LiveQueryModel`s over 10 lists of 1,000 rows are run and observed (each by a loop that reads
/// its rows and marks again after every change, as a view renders), against the same writes
/// while 100 plain `for try await` readers read the same lists, in alternating rounds of one
/// run. Both with rows as `QueryRows`, and both decoding each snapshot's rows into a struct (the
/// plain readers as a hand-written loop does: all rows, each snapshot).
enum LiveModelsBenchmark {
    private static let queryCount = LiveBenchmark.queryCount
    private static let readersPerQuery = 10
    private static let rowsPerQuery = LiveBenchmark.rowsPerQuery
    private static let rounds = 5

    /// A row as the app decodes it.
    struct Item: Decodable, Sendable {
        var id: Int
        var group: Int
        var title: String
    }

    /// The median writes per second with models and with plain readers.
    static func run(decoding: Bool) async throws -> (models: Double, plain: Double) {
        let observed = try await BenchClient()
        let plain = try await BenchClient()
        defer {
            observed.removeFiles()
            plain.removeFiles()
        }
        let loaded = Sightings()
        var withModels = [Double]()
        var withPlainReaders = [Double]()
        try await withThrowingDiscardingTaskGroup { group in
            for query in 0..<queryCount {
                let models = observed.client.from("items").select().eq("group", value: query)
                let reads = plain.client.from("items").select().eq("group", value: query)
                for _ in 0..<readersPerQuery {
                    if decoding {
                        let model = await LiveQueryModel(models, as: Item.self)
                        group.addTask { await model.run() }
                        group.addTask { await watch(model, loaded: loaded) { $0.count } }
                    } else {
                        let model = await LiveQueryModel(models)
                        group.addTask { await model.run() }
                        group.addTask { await watch(model, loaded: loaded) { $0.count } }
                    }
                    group.addTask { try await read(reads, decoding: decoding, loaded: loaded) }
                }
            }
            _ = await loaded.waitUntilSeen(0, by: 2 * queryCount * readersPerQuery)
            await observed.client.disableNetwork()
            await plain.client.disableNetwork()
            for round in 0..<rounds {
                let firstID = 1 + round * LiveBenchmark.writerCount * LiveBenchmark.writesPerWriter
                withPlainReaders.append(
                    try await LiveBenchmark.concurrentWrites(on: plain.client, firstID: firstID))
                withModels.append(
                    try await LiveBenchmark.concurrentWrites(on: observed.client, firstID: firstID))
            }
            group.cancelAll()
        }
        await observed.client.close()
        await plain.client.close()
        return (withModels.percentile(0.5), withPlainReaders.percentile(0.5))
    }

    /// Observes `model` as a view would until cancelled: reads its rows and marks, and again
    /// after each change; tells `loaded` once the list's rows are there from the server.
    @MainActor
    private static func watch<Rows>(
        _ model: LiveQueryModel<Rows>, loaded: Sightings, count: (Rows) -> Int
    ) async {
        var announced = false
        while !Task.isCancelled {
            let changed = ChangeSignal()
            let rows = withObservationTracking {
                _ = model.pendingRowIDs.count
                return model.refresh == .idle ? count(model.rows) : 0
            } onChange: {
                changed.fire()
            }
            if !announced, rows >= rowsPerQuery {
                announced = true
                loaded.saw(0, at: .now)
            }
            await changed.wait()
        }
    }

    /// A plain reader: every snapshot's rows, decoded when `decoding` (all of them, each time).
    private static func read(_ query: ReadQuery, decoding: Bool, loaded: Sightings) async throws {
        var announced = false
        for try await snapshot in query.snapshots() {
            guard let rows = snapshot.result?.rows else { continue }
            let count = decoding ? try QueryResult(rows: rows).decode([Item].self).count : rows.count
            if !announced, count >= rowsPerQuery, snapshot.refresh == .idle {
                announced = true
                loaded.saw(0, at: .now)
            }
        }
    }

    /// A client with the benchmark's 10 lists on its server, its store in a folder of its own.
    private struct BenchClient {
        let client: OfflineClient
        let folder: URL

        init() async throws {
            let rows = LiveBenchmark.listRows()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-models-\(UUID())")
            client = try await OfflineClient(
                configuration: Configuration(
                    url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
                    transport: InMemoryPostgREST(tables: ["items": rows])))
            try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
        }

        func removeFiles() {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
