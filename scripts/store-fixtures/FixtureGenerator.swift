// Writes one store fixture with the store code of the commit it is built at, and a manifest of
// every table's columns as that code wrote them.
//
// Not part of the package: scripts/make-store-fixtures.sh copies it into a throwaway worktree of
// an old commit as an executable target (it uses that commit's `package` store API), builds it
// there and runs it: `FixtureGenerator <version> <output folder> <commit> [<version-1 SQL file>]`.
//
// The same scenario at every version: a signed-in user's session and cache owner, three cached
// lists (two of `tasks`, one of `notes`), seven writes of that user made in this order:
//   w1 insert t4, w2 update t1 -> replayed (in the replay log, not retired; accepted from v3)
//   w3 insert t5               -> rejected (403, 42501)
//   w4 insert t6               -> sent, no answer: in flight (v2 and later), one attempt
//   w5 update t2, w6 delete t3, w7 upsert n2 into notes -> queued
// Version 1 never shipped on its own (the first store commit already had version 2): its file is
// made from the literal version-1 layout (the SQL of `StoreSchema.version1`, given as a file) and filled with the version-1 columns of the rows this
// code wrote into a store of its own version (the bytes of the oldest code with this API).
import CSQLite
import Foundation
import OfflineEngine

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let version = Int(arguments[1]) else {
    let usage = "usage: FixtureGenerator <version> <output folder> <commit> [<version-1 SQL file>]\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[2], isDirectory: true)
let commit = arguments[3]
let fileName = "offline-engine.sqlite"

/// The scenario's fixed values, so that every version's fixture holds the same data.
enum Scenario {
    static let owner = "user-1"
    static let epoch = 1_764_000_000.0

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 11) + String(number))!
    }

    static func row(_ text: String) -> Row {
        guard let value = try? JSONText.parse(text), let row = Row(json: value) else {
            fatalError("not a row: \(text)")
        }
        return row
    }

    static func owned(_ write: WriteQuery, _ number: Int) -> Mutation {
        var mutation = write.mutation
        mutation.id = id(number)
        mutation.ownerID = owner
        mutation.createdAt = Date(timeIntervalSince1970: epoch + 100 + Double(number))
        return mutation
    }

    static let tasks = [
        #"{"id":"t1","title":"Buy milk","done":false,"estimate":9007199254740993,"price":1.50}"#,
        #"{"id":"t2","title":"Call mum","done":false,"estimate":2,"price":0.1}"#,
        #"{"id":"t3","title":"Write report","done":true,"estimate":3,"price":10}"#,
    ].map(row)

    static var lists: [StoredList] {
        let all = TableQuery(table: "tasks").select().order("title").query
        let open = TableQuery(table: "tasks").select("id,title").eq("done", value: false).query
        let notes = TableQuery(table: "notes").select().query
        return [
            StoredList(
                key: all.canonicalKey, table: "tasks", rows: tasks,
                fetchedAt: Date(timeIntervalSince1970: epoch)),
            StoredList(
                key: open.canonicalKey, table: "tasks",
                rows: [row(#"{"id":"t1","title":"Buy milk"}"#), row(#"{"id":"t2","title":"Call mum"}"#)],
                fetchedAt: Date(timeIntervalSince1970: epoch + 2)),
            StoredList(
                key: notes.canonicalKey, table: "notes", rows: [row(#"{"id":"n1","body":"Ünïcode ✓ note"}"#)],
                fetchedAt: Date(timeIntervalSince1970: epoch + 1)),
        ]
    }

    // `try` on each builder that throws at one of the commits.
    static func writes() throws -> [Mutation] {
        let tasks = TableQuery(table: "tasks")
        return [
            owned(try tasks.insert(row(#"{"id":"t4","title":"Pay rent","done":false}"#)), 1),
            owned(try tasks.update(row(#"{"done":true}"#)).eq("id", value: "t1"), 2),
            owned(try tasks.insert(row(#"{"id":"t5","title":"Forbidden","done":false}"#)), 3),
            owned(try tasks.insert(row(#"{"id":"t6","title":"Sent before the crash","done":false}"#)), 4),
            owned(try tasks.update(row(#"{"title":"Call mum back"}"#)).eq("id", value: "t2"), 5),
            owned(tasks.delete().eq("id", value: "t3"), 6),
            owned(try TableQuery(table: "notes").upsert(row(#"{"id":"n2","body":"Second note"}"#)), 7),
        ]
    }
}

/// Fills a store through the store's own API, the way the engine does.
func fill(_ folder: URL) async throws {
    let store = try Store.open(.directory(folder))
    try await store.account.setOwner(Scenario.owner)
    try await store.account.setSession(
        AuthSession(
            accessToken: "token-user-1", refreshToken: "refresh-user-1", userID: Scenario.owner,
            expiresAt: Date(timeIntervalSince1970: 4_102_444_800)))
    // From version 6 on, each user's lists are kept apart: the owner's go in the owner's cache
    // (the script builds those versions with LISTS_BY_USER; older code has one cache).
    #if LISTS_BY_USER
        try await store.lists(of: Scenario.owner).save(Scenario.lists)
    #else
        try await store.lists.save(Scenario.lists)
    #endif
    for write in try Scenario.writes() { try await store.queue.enqueue(write) }
    _ = try await store.replayLog.moveFromQueueAtNewTick([Scenario.id(1), Scenario.id(2)])
    try await store.rejected.add(
        Scenario.id(3),
        details: RejectionDetails(
            status: 403, code: "42501", message: #"new row violates row-level security policy for table "tasks""#),
        at: Date(timeIntervalSince1970: Scenario.epoch + 200))
    try await store.queue.markInFlight(Scenario.id(4))
    try await store.queue.recordAttempt(Scenario.id(4))
    await store.close()
}

/// A raw SQLite connection, for the version-1 file and the manifest.
final class Database {
    let handle: OpaquePointer

    init(_ path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { fatalError("cannot open \(path)") }
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            fatalError(String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Runs `sql` and gives each row's cells as SQLite stored them.
    func rows(_ sql: String) -> [[Cell]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            fatalError(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[Cell]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { Cell(statement, $0) })
        }
        return rows
    }

    /// Inserts `cells` into `table`'s `columns`.
    func insert(into table: String, columns: [String], _ cells: [Cell]) {
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        var statement: OpaquePointer?
        let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(marks))"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            fatalError(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, cell) in cells.enumerated() {
            let position = Int32(index + 1)
            switch cell {
            case .null: _ = sqlite3_bind_null(statement, position)
            case .integer(let value): _ = sqlite3_bind_int64(statement, position, value)
            case .real(let value): _ = sqlite3_bind_double(statement, position, value)
            case .text(let value): _ = sqlite3_bind_text(statement, position, value, -1, transient)
            case .blob(let value):
                _ = value.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(statement, position, bytes.baseAddress, Int32(bytes.count), transient)
                }
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(handle))) }
    }

    func columns(of table: String) -> [String] {
        rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid").map { $0[0].textValue }
    }

    var tables: [String] {
        rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0].textValue }
    }
}

/// One stored value with its SQLite type.
enum Cell {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ statement: OpaquePointer, _ index: Int32) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: self = .text(sqlite3_column_text(statement, index).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            let bytes = sqlite3_column_blob(statement, index)
            self = .blob(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        default: self = .null
        }
    }

    var textValue: String {
        if case .text(let text) = self { return text }
        fatalError("not text: \(self)")
    }

    /// The manifest's form: `n` (NULL), `i:` integer, `r:` real (shortest exact decimal),
    /// `t:` text, `b:` blob in lowercase hex.
    var manifest: String {
        switch self {
        case .null: return "n"
        case .integer(let value): return "i:\(value)"
        case .real(let value): return "r:\(value)"
        case .text(let value): return "t:\(value)"
        case .blob(let value): return "b:" + value.map { String(format: "%02x", $0) }.joined()
        }
    }
}

/// Makes the version-1 file at `path` from the version-1 columns of the store in `source`.
/// `layout` is the SQL of `StoreSchema.version1`, which never changed (the script takes it from
/// the commit's source).
func writeVersion1(from source: String, to path: String, layout: String) {
    let old = Database(source)
    let new = Database(path)
    new.execute("PRAGMA journal_mode = WAL")
    new.execute("BEGIN; " + layout + "; PRAGMA user_version = 1; COMMIT")
    for table in new.tables {
        let columns = new.columns(of: table)
        for cells in old.rows("SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY rowid") {
            new.insert(into: table, columns: columns, cells)
        }
    }
    new.execute("PRAGMA wal_checkpoint(TRUNCATE)")
}

/// Every table's columns and rows, ordered by all their columns, as the manifest keeps them.
func manifest(of path: String) -> [String: Any] {
    let database = Database(path)
    var tables: [[String: Any]] = []
    for table in database.tables {
        let columns = database.columns(of: table)
        let order = columns.joined(separator: ", ")
        let rows = database.rows("SELECT \(order) FROM \(table) ORDER BY \(order)")
        tables.append(["name": table, "columns": columns, "rows": rows.map { $0.map(\.manifest) }])
    }
    let version = database.rows("PRAGMA user_version")[0]
    guard case .integer(let number) = version[0] else { fatalError("no user_version") }
    return ["version": Int(number), "commit": commit, "tables": tables]
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("store-fixture-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
try await fill(scratch)
let filled = scratch.appendingPathComponent(fileName).path
// The store's log is emptied into the file when it closes; make sure, so one file holds it all.
Database(filled).execute("PRAGMA wal_checkpoint(TRUNCATE)")
let fixture = output.appendingPathComponent("store-v\(version).sqlite").path
try? FileManager.default.removeItem(atPath: fixture)
if version == 1 {
    guard arguments.count == 5 else { fatalError("version 1 needs the file of its layout's SQL") }
    writeVersion1(from: filled, to: fixture, layout: try String(contentsOfFile: arguments[4], encoding: .utf8))
} else {
    try FileManager.default.copyItem(atPath: filled, toPath: fixture)
}
try FileManager.default.removeItem(at: scratch)
let written = manifest(of: fixture)
guard written["version"] as? Int == version else {
    fatalError("this commit writes version \(written["version"] ?? "?"), not \(version)")
}
let json = try JSONSerialization.data(withJSONObject: written, options: [.prettyPrinted, .sortedKeys])
try (json + Data("\n".utf8)).write(to: output.appendingPathComponent("store-v\(version).json"))
print("store-v\(version): \(fixture)")
