import CSQLite
import Foundation
import OfflineEngine

/// Durable queued writes per second through `Store.enqueue` with 1, 8 and 64 concurrent writers
/// (each awaits every append before the next, so each write is on disk when counted), against the
/// ceiling measured in the same run: the same rows inserted with raw SQLite in one transaction;
/// one writer also against raw SQLite committing each row (as many commits as that writer makes),
/// and 8 writers against raw SQLite committing 8 rows at a time (the fewest commits 8 writers
/// that each await their write can make).
enum StoreBenchmark {
    static let totalWrites = 32_000
    /// Each figure is the best of this many repetitions (the same for the ceiling), so that load
    /// from other processes on a shared machine disturbs the comparison less.
    static let repetitions = 3

    static func run() async throws {
        var baseline = 0.0
        for _ in 0..<repetitions { baseline = max(baseline, try rawSingleTransaction(count: totalWrites)) }
        print(#"{"bench":"store.raw_insert_one_transaction","value":\#(Int(baseline)),"unit":"rows/s"}"#)
        // The same rows with one commit each: the baseline with as many commits as one writer makes.
        var perRow = 0.0
        for _ in 0..<repetitions {
            perRow = max(perRow, try rawSingleTransaction(count: totalWrites / 8, commitEachRow: true))
        }
        print(#"{"bench":"store.raw_insert_commit_per_row","value":\#(Int(perRow)),"unit":"rows/s"}"#)
        // Commits of 8 rows: the most 8 writers that each await their write can share a commit.
        var perEight = 0.0
        for _ in 0..<repetitions {
            perEight = max(perEight, try rawInserts(count: totalWrites, rowsPerCommit: 8))
        }
        print(#"{"bench":"store.raw_insert_commit_per_8_rows","value":\#(Int(perEight)),"unit":"rows/s"}"#)
        for writers in [1, 8, 64] {
            var value = 0.0
            for _ in 0..<repetitions {
                value = max(
                    value, try await enqueueThroughput(writers: writers, perWriter: totalWrites / writers))
            }
            let ratio = (value / baseline * 1_000).rounded() / 1_000
            let perCommit =
                writers == 1
                ? #","ratio_to_commit_per_row":\#((value / perRow * 1_000).rounded() / 1_000)"#
                : writers == 8
                    ? #","ratio_to_commit_per_8_rows":\#((value / perEight * 1_000).rounded() / 1_000)"# : ""
            let writes = totalWrites / writers * writers
            print(
                #"{"bench":"store.enqueue","writers":\#(writers),"value":\#(Int(value)),"unit":"writes/s","#
                    + #""baseline":\#(Int(baseline)),"ratio":\#(ratio),"writes":\#(writes),"#
                    + #""runs":\#(repetitions)\#(perCommit)}"#)
        }
    }

    /// A write like an app makes: an insert of one task row with a bigint, a numeric and some text.
    static func realisticWrite(writer: Int, index: Int) -> Mutation {
        let row: Row = [
            "id": .string(UUID().uuidString.lowercased()),
            "title": .string("Call the plumber about the kitchen sink (\(writer)-\(index))"),
            "done": false,
            "priority": .number(JSONNumber(index % 5)),
            "owner_id": "7f3c2a9e-0b1d-4c5e-9a8f-123456789abc",
            "amount": .number(JSONNumber(text: "1250.50") ?? JSONNumber(0)),
            "created_at": "2025-06-01T12:34:56.789Z",
        ]
        return Mutation(
            ownerID: "7f3c2a9e-0b1d-4c5e-9a8f-123456789abc", table: "tasks", operation: .insert, rows: [row])
    }

    static func enqueueThroughput(writers: Int, perWriter: Int) async throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store.open(.directory(folder))
        let batches = (0..<writers).map { writer in
            (0..<perWriter).map { realisticWrite(writer: writer, index: $0) }
        }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for batch in batches {
                    group.addTask {
                        for write in batch { try await store.queue.enqueue(write) }
                    }
                }
                try await group.waitForAll()
            }
        }
        let stored = try await store.queue.count()
        await store.close()
        guard stored == writers * perWriter else { throw BenchmarkFailure(what: "queued \(stored) writes") }
        return Double(stored) / seconds(elapsed)
    }

    /// The ceiling: the same kind of rows, already encoded, inserted by one prepared statement in one
    /// WAL transaction, in a file set up as the store's (`RawQueueFile`).
    static func rawSingleTransaction(count: Int, commitEachRow: Bool = false) throws -> Double {
        try rawInserts(count: count, rowsPerCommit: commitEachRow ? 1 : count)
    }

    /// The ceiling's rows committed `rowsPerCommit` at a time: with 8, as many commits as 8
    /// writers whose every commit takes one write of each.
    static func rawInserts(count: Int, rowsPerCommit: Int) throws -> Double {
        try RawQueueFile().append(count, rowsPerCommit: rowsPerCommit)
    }

    /// The same JSON shape the store persists for a write.
    static func persistedShape(_ write: Mutation) -> JSONValue {
        [
            "id": .string(write.id.uuidString.lowercased()), "table": .string(write.table), "op": "insert",
            "rows": .array(write.rows.map(\.json)), "filters": [], "ignoreDuplicates": false,
            "missingDefault": false, "createdAt": .number(JSONNumber(write.createdAt.timeIntervalSince1970)),
            "attempts": 0, "owner": .string(write.ownerID ?? ""),
        ]
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchmarkFailure(what: sql) }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    struct BenchmarkFailure: Error {
        var what: String
    }
}
