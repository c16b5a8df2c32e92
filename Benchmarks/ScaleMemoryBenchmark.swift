import Foundation
import OfflineEngine
import OfflineEngineTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `scale.memory`: resident memory before and after 100,000 queued writes (8 writers) with 100
/// live readers over 10 lists, and the writes/s of the first and the last tenth of the run.
enum ScaleMemoryBenchmark {
    private static let totalWrites = 100_000
    private static let writerCount = 8
    private static let queryCount = 10
    private static let readersPerQuery = 10

    static func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scale-memory-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
                transport: InMemoryPostgREST(tables: ["items": []])))
        try await client.signIn(AuthSession(accessToken: "bench-token", userID: "bench-user"))
        var readers: [Task<Void, Never>] = []
        for group in 0..<queryCount {
            let query = client.from("items").select().eq("group", value: group)
            for _ in 0..<readersPerQuery {
                readers.append(
                    Task.detached {
                        do {
                            for try await snapshot in query.snapshots() { _ = snapshot.result?.rows.count }
                        } catch {}
                    })
            }
        }
        await client.disableNetwork()
        let before = residentBytes()
        var rates: [Double] = []
        let tenth = totalWrites / 10
        for chunk in 0..<10 {
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writerCount {
                    group.addTask {
                        for index in stride(from: writer, to: tenth, by: writerCount) {
                            let id = chunk * tenth + index + 1
                            let row: Row = [
                                "id": .number(JSONNumber(id)), "group": .number(JSONNumber(id % queryCount)),
                                "title": "queued",
                            ]
                            _ = try await client.from("items").insert(row).execute()
                        }
                    }
                }
                try await group.waitForAll()
            }
            rates.append(Double(tenth) / StoreBenchmark.seconds(ContinuousClock.now - started))
        }
        let after = residentBytes()
        for reader in readers { reader.cancel() }
        await client.close()
        let perWrite = Double(after - before) / Double(totalWrites)
        print(
            #"{"bench":"scale.memory","resident_mb_before":\#(megabytes(before)),"#
                + #""resident_mb_after":\#(megabytes(after)),"bytes_per_write":\#(Int(perWrite)),"#
                + #""first_tenth_writes_per_s":\#(Int(rates.first ?? 0)),"#
                + #""last_tenth_writes_per_s":\#(Int(rates.last ?? 0)),"#
                + #""ratio_last_to_first":\#(String(format: "%.3f", (rates.last ?? 0) / max(rates.first ?? 1, 1))),"#
                + #""writes":\#(totalWrites),"writers":\#(writerCount),"readers":\#(queryCount * readersPerQuery)}"#
        )
    }

    /// The process's resident memory, from `/proc/self/statm` (0 where it cannot be read).
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
