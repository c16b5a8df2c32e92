import CSQLite
import Foundation
import OfflineEngine

/// SQLite alone, as the benchmarks' baseline: a file in a folder of its own with the store's
/// `queue` table and settings (WAL, `synchronous=NORMAL`, exclusive locking, and by default the
/// store file's incremental auto-vacuum and secure delete), rows of the store's stored shape
/// inserted by one prepared statement. It stays open between measures, so a baseline can be taken
/// at the same depth as the store it is compared with.
final class RawQueueFile {
    /// How the file is set up besides its table and log.
    enum Settings {
        /// As the store makes its files: incremental auto-vacuum (each page a commit adds is also
        /// entered in a pointer map, a second page written) and secure delete.
        case store
        /// SQLite's defaults for both.
        case plain
    }

    private let folder: URL
    private let db: OpaquePointer
    private let insert: OpaquePointer
    /// The rows appended so far, numbering the next rows' writes.
    private var appended = 0

    init(_ settings: Settings = .store) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "raw-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var handle: OpaquePointer?
        guard sqlite3_open(folder.appendingPathComponent("raw.sqlite").path, &handle) == SQLITE_OK, let handle
        else { throw StoreBenchmark.BenchmarkFailure(what: "open") }
        db = handle
        if case .store = settings {
            // Before the log's mode writes the file's header, as the store does.
            try StoreBenchmark.exec(db, "PRAGMA auto_vacuum = INCREMENTAL;")
        }
        try StoreBenchmark.exec(db, "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;")
        try StoreBenchmark.exec(db, "PRAGMA synchronous = NORMAL;")
        if case .store = settings { try StoreBenchmark.exec(db, "PRAGMA secure_delete = ON;") }
        try StoreBenchmark.exec(
            db,
            """
            CREATE TABLE queue (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, owner TEXT,
                schema_name TEXT NOT NULL, table_name TEXT NOT NULL, operation TEXT NOT NULL,
                payload BLOB NOT NULL, created_at REAL NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
                in_flight INTEGER NOT NULL DEFAULT 0)
            """)
        var statement: OpaquePointer?
        let sql = """
            INSERT INTO queue (id, owner, schema_name, table_name, operation, payload, created_at, attempts)
            VALUES (?, ?, '', 'tasks', 'insert', ?, ?, 0)
            """
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw StoreBenchmark.BenchmarkFailure(what: "prepare")
        }
        insert = statement
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(db)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Appends `count` rows, `rowsPerCommit` to a commit, and returns the rows a second: the rows
    /// are made and encoded before the clock starts.
    func append(_ count: Int, rowsPerCommit: Int) throws -> Double {
        let rows = (0..<count).map { index in
            let write = StoreBenchmark.realisticWrite(writer: 0, index: appended + index)
            return (
                id: write.id.uuidString.lowercased(),
                payload: [UInt8](JSONText.data(StoreBenchmark.persistedShape(write)))
            )
        }
        appended += count
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let start = ContinuousClock.now
        for (index, row) in rows.enumerated() {
            if rowsPerCommit > 1, index % rowsPerCommit == 0 {
                try StoreBenchmark.exec(db, "BEGIN IMMEDIATE")
            }
            sqlite3_bind_text(insert, 1, row.id, -1, transient)
            sqlite3_bind_text(insert, 2, "7f3c2a9e-0b1d-4c5e-9a8f-123456789abc", -1, transient)
            sqlite3_bind_blob(insert, 3, row.payload, Int32(row.payload.count), transient)
            sqlite3_bind_double(insert, 4, Date().timeIntervalSince1970)
            guard sqlite3_step(insert) == SQLITE_DONE else {
                throw StoreBenchmark.BenchmarkFailure(what: "insert")
            }
            sqlite3_reset(insert)
            if rowsPerCommit > 1, index % rowsPerCommit == rowsPerCommit - 1 || index == count - 1 {
                try StoreBenchmark.exec(db, "COMMIT")
            }
        }
        return Double(count) / StoreBenchmark.seconds(ContinuousClock.now - start)
    }

    /// Fills the file with `count` rows, committed a thousand at a time (as the store's filling
    /// writers share commits), so that later appends meet a table of that length.
    func fill(_ count: Int) throws {
        var left = count
        while left > 0 {
            let now = min(left, 10_000)
            _ = try append(now, rowsPerCommit: 1_000)
            left -= now
        }
    }
}
