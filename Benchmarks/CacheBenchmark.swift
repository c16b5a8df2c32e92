import CSQLite
import Foundation
import OfflineEngine
import OfflineEngineTesting

/// The cache's budget at scale, each against raw SQLite on a copy of the same store file in the
/// same run:
/// - `cache.evict`: a 200 MB store (2,000 lists of 100 KB) opened with a 100 MB budget, from the
///   client's open to ``OfflineClient/cacheSize()`` returning (the launch pass: the least recently
///   read lists removed down to 90 MB, then the file compacted), against raw SQLite deleting the
///   same number of least recently read lists with the same settings (write-ahead log, secure
///   delete) and compacting the same way (incremental vacuum, log checkpoint);
/// - `cache.startup`: the first snapshot of one list from a store at its budget (1,000 lists of
///   100 KB), from the client's open, against raw SQLite opening the file, reading that list and
///   decoding its rows with the same JSON parser.
enum CacheBenchmark {
    static let listBytes = 100_000
    static let megabyte = 1_000_000

    static func run(only part: String? = nil) async throws {
        if part == nil || part == "evict" { try await evict() }
        if part == nil || part == "startup" { try await startup() }
    }

    private static func evict() async throws {
        let folder = temporaryFolder("cache-evict")
        let copy = temporaryFolder("cache-evict-raw")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: copy)
        }
        try await fill(folder, lists: 2_000)
        try FileManager.default.copyItem(at: folder, to: copy)
        let before = try fileBytes(folder)

        let started = ContinuousClock.now
        let client = try await client(folder, budget: 100 * megabyte)
        let left = try await client.cacheSize()
        let engine = StoreBenchmark.seconds(ContinuousClock.now - started)
        await client.close()
        let after = try fileBytes(folder)
        let removed = 2_000 - (try rawCount(folder))

        let rawStarted = ContinuousClock.now
        try rawEvict(copy, lists: removed)
        let raw = StoreBenchmark.seconds(ContinuousClock.now - rawStarted)
        let rawAfter = try fileBytes(copy)
        print(
            #"{"bench":"cache.evict","value":\#(format(engine * 1_000)),"unit":"ms","#
                + #""baseline":\#(format(raw * 1_000)),"ratio":\#(format(engine / raw)),"#
                + #""lists_removed":\#(removed),"cache_bytes_after":\#(left),"#
                + #""file_bytes_before":\#(before),"file_bytes_after":\#(after),"#
                + #""raw_file_bytes_after":\#(rawAfter)}"#)
    }

    private static func startup() async throws {
        let folder = temporaryFolder("cache-startup")
        defer { try? FileManager.default.removeItem(at: folder) }
        // At its budget: the lists take exactly the budget's bytes.
        let budget = try await fill(folder, lists: 1_000)
        let wanted = 500

        let rawStarted = ContinuousClock.now
        let rows = try rawRead(folder, key: key(wanted))
        let raw = StoreBenchmark.seconds(ContinuousClock.now - rawStarted)
        guard rows == rowsPerList else {
            throw StoreBenchmark.BenchmarkFailure(what: "raw read \(rows) rows")
        }

        let started = ContinuousClock.now
        let client = try await client(folder, budget: budget)
        for try await snapshot in client.from("tasks").select().eq("list", value: wanted).snapshots()
        where snapshot.result != nil {
            guard snapshot.result?.rows.count == rowsPerList else {
                throw StoreBenchmark.BenchmarkFailure(
                    what: "snapshot of \(snapshot.result?.rows.count ?? 0) rows")
            }
            break
        }
        let first = StoreBenchmark.seconds(ContinuousClock.now - started)
        let size = try await client.cacheSize()
        await client.close()
        print(
            #"{"bench":"cache.startup","value":\#(format(first * 1_000)),"unit":"ms","#
                + #""baseline":\#(format(raw * 1_000)),"ratio":\#(format(first / raw)),"#
                + #""cache_bytes":\#(size),"budget":\#(budget),"lists":1000}"#)
    }

    // MARK: The store

    static let rowsPerList = 200

    /// The rows of list `list`: 200 rows of about 500 bytes, 100 KB in all.
    private static func rows(of list: Int) -> [Row] {
        (0..<rowsPerList).map { index in
            [
                "id": .number(JSONNumber(list * rowsPerList + index)), "list": .number(JSONNumber(list)),
                "title": .string(
                    "Task \(index) of list \(list): " + String(repeating: "lorem ipsum ", count: 33)),
                "done": .bool(index % 3 == 0), "created_at": "2025-06-01T12:34:56.789Z",
            ]
        }
    }

    private static func key(_ list: Int) -> String {
        ReadQuery(QueryDescription(table: "tasks")).eq("list", value: list).query.canonicalKey
    }

    /// A store of `lists` lists, read in the order they were saved (list 0 least recently);
    /// returns the bytes they take in the budget.
    @discardableResult
    private static func fill(_ folder: URL, lists: Int) async throws -> Int {
        let store = try Store.open(.directory(folder))
        for start in stride(from: 0, to: lists, by: 50) {
            let batch = (start..<min(start + 50, lists)).map { list in
                StoredList(key: key(list), table: "tasks", rows: rows(of: list), fetchedAt: Date(), mark: 1)
            }
            try await store.lists.save(batch)
        }
        let bytes = store.listBytes.value
        await store.close()
        return bytes
    }

    private static func rawEvict(_ folder: URL, lists: Int) throws {
        let db = try open(folder)
        defer { sqlite3_close(db) }
        try StoreBenchmark.exec(
            db,
            """
            PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            PRAGMA secure_delete = ON;
            BEGIN IMMEDIATE;
            CREATE TEMP TABLE gone AS SELECT key FROM list_usage ORDER BY read_seq LIMIT \(lists);
            DELETE FROM lists WHERE key IN gone;
            DELETE FROM list_usage WHERE key IN gone;
            PRAGMA incremental_vacuum;
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
    }

    private static func rawRead(_ folder: URL, key: String) throws -> Int {
        let db = try open(folder)
        defer { sqlite3_close(db) }
        try StoreBenchmark.exec(db, "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;")
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT rows FROM lists WHERE key = ?", -1, &statement, nil) == SQLITE_OK
        else { throw StoreBenchmark.BenchmarkFailure(what: "prepare") }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_text(statement, 1, key, -1, transient)
        guard sqlite3_step(statement) == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) else {
            return 0
        }
        let blob = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
        return try Row.rows(from: JSONText.parse(blob)).count
    }

    private static func rawCount(_ folder: URL) throws -> Int {
        let db = try open(folder)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM list_usage", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { throw StoreBenchmark.BenchmarkFailure(what: "count") }
        defer { sqlite3_finalize(statement) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    private static func open(_ folder: URL) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open(folder.appendingPathComponent(Storage.fileName).path, &db) == SQLITE_OK, let db
        else {
            throw StoreBenchmark.BenchmarkFailure(what: "open")
        }
        return db
    }

    // MARK: Helpers

    private static func client(_ folder: URL, budget: Int) async throws -> OfflineClient {
        var configuration = Configuration(
            url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
            transport: InMemoryPostgREST(tables: ["tasks": []]))
        configuration.cache.budget = budget
        let client = try await OfflineClient(configuration: configuration)
        await client.disableNetwork()
        return client
    }

    private static func fileBytes(_ folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).reduce(0) { total, name in
            let path = folder.appendingPathComponent(name).path
            return total
                + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    private static func temporaryFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
