import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements. It is not thread-safe: the store's
/// writer owns it and uses it from one thread at a time (SQLite's multi-thread mode).
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [StatementKey: OpaquePointer] = [:]
    /// Test-only: the rows each read returns, when a test records them.
    let readHooks = ReadHooks()

    /// Opens the database at `path` (creating it when missing, unless `create` is `false`), or an
    /// in-memory one for `nil`.
    init(path: String?, create: Bool = true) throws(StoreError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path ?? ":memory:", &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = db.map { Self.error(code: sqlite3_extended_errcode($0), handle: $0) }
            sqlite3_close_v2(db)
            throw error ?? Self.error(code: code, handle: nil)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Waits up to `milliseconds` for another connection's lock instead of failing at once.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Whether no transaction is open (SQLite rolled back or none was begun).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Runs SQL text that returns no rows (several statements allowed); not cached.
    func execute(script sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Runs one cached statement that returns no rows.
    func run(_ sql: String, _ values: SQLiteValue...) throws(StoreError) {
        try run(sql, values)
    }

    /// Runs one cached statement that returns no rows, with the values in an array. Text and
    /// bytes are lent to SQLite for the step instead of copied (`SQLITE_STATIC`), and unbound
    /// after it, so no binding outlives what it points to.
    func run(_ sql: String, _ values: [SQLiteValue]) throws(StoreError) {
        let statement = try prepared(sql, values, binding: false)
        defer { sqlite3_clear_bindings(statement.pointer) }
        try statement.lending(values) { () throws(StoreError) in try statement.step() }
    }

    /// Runs one cached statement and reads every row it returns.
    func query<T>(
        _ sql: String, _ values: SQLiteValue..., row read: (SQLiteRow) throws(StoreError) -> T
    ) throws(StoreError) -> [T] {
        try query(sql, values, row: read)
    }

    /// Runs one cached statement with the values in an array and reads every row it returns.
    func query<T>(
        _ sql: String, _ values: [SQLiteValue], row read: (SQLiteRow) throws(StoreError) -> T
    ) throws(StoreError) -> [T] {
        let statement = try prepared(sql, values)
        var results: [T] = []
        while try statement.step() {
            results.append(try read(SQLiteRow(statement: statement.pointer)))
        }
        readHooks.record(sql, rows: results.count)
        return results
    }

    /// The rowid of the last row inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String, _ values: [SQLiteValue], binding: Bool = true) throws(StoreError)
        -> Statement
    {
        let pointer: OpaquePointer
        let key = StatementKey(sql: sql)
        if let cached = statements[key] {
            pointer = cached
            sqlite3_reset(pointer)
            // Values bound to every parameter replace the last ones: clearing is only needed
            // when some are left unbound.
            if values.count < Int(sqlite3_bind_parameter_count(pointer)) { sqlite3_clear_bindings(pointer) }
        } else {
            var made: OpaquePointer?
            let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
            let code = sqlite3_prepare_v3(handle, sql, -1, flags, &made, nil)
            guard code == SQLITE_OK, let made else { throw failure(code) }
            statements[key] = made
            pointer = made
        }
        let statement = Statement(pointer: pointer, connection: self)
        guard binding else { return statement }
        for (index, value) in values.enumerated() {
            try statement.bind(value, at: Int32(index + 1))
        }
        return statement
    }

    fileprivate func failure(_ code: Int32) -> StoreError {
        Self.error(
            code: sqlite3_extended_errcode(handle) == 0 ? code : sqlite3_extended_errcode(handle),
            handle: handle)
    }

    /// Maps an SQLite result code to the store's error.
    static func error(code: Int32, handle: OpaquePointer?) -> StoreError {
        switch code & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR, SQLITE_READONLY, SQLITE_AUTH: return .unreadable
        case SQLITE_FULL: return .full
        case SQLITE_BUSY, SQLITE_LOCKED: return .inUse
        default:
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            return .failed(code: code, detail: message ?? String(cString: sqlite3_errstr(code)))
        }
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Text, or NULL for `nil`.
    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}

/// The current row of a running statement.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    /// Whether the column holds NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// The column as an integer.
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// The column as a floating-point number.
    func real(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    /// The column as text, or `nil` for NULL.
    func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, index) else { return nil }
        return String(cString: bytes)
    }

    /// The column as bytes (empty for NULL).
    func blob(_ index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(statement, index))
        guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// SQLite reads the bytes where they are, for as long as they are bound (`SQLITE_STATIC`).
private let lent: sqlite3_destructor_type? = nil

private struct Statement {
    let pointer: OpaquePointer
    let connection: SQLiteConnection

    func bind(_ value: SQLiteValue, at index: Int32) throws(StoreError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(pointer, index)
        case .integer(let number): code = sqlite3_bind_int64(pointer, index, number)
        case .real(let number): code = sqlite3_bind_double(pointer, index, number)
        // `withCString` lends the string's own bytes (a short one from the stack): passing the
        // String itself would copy it to a new array at every bind.
        case .text(let text): code = text.withCString { sqlite3_bind_text(pointer, index, $0, -1, transient) }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(
                    pointer, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    Int32(bytes.count), transient)
            }
        }
        guard code == SQLITE_OK else { throw connection.failure(code) }
    }

    /// Binds `values` from `index` on, each text or bytes lent from its own storage for as long
    /// as `body` runs (one nested borrow per value), then runs `body`.
    func lending(
        _ values: [SQLiteValue], from index: Int = 0, _ body: () throws(StoreError) -> Void
    ) throws(StoreError) {
        guard index < values.count else { return try body() }
        let position = Int32(index + 1)
        var outcome: Result<Void, StoreError> = .success(())
        func lend(_ code: Int32) {
            guard code == SQLITE_OK else {
                outcome = .failure(connection.failure(code))
                return
            }
            do throws(StoreError) { try lending(values, from: index + 1, body) } catch {
                outcome = .failure(error)
            }
        }
        switch values[index] {
        case .text(let text):
            text.withCString { lend(sqlite3_bind_text(pointer, position, $0, -1, lent)) }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                lend(
                    sqlite3_bind_blob(
                        pointer, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        Int32(bytes.count), lent))
            }
        case .null, .integer, .real:
            try bind(values[index], at: position)
            return try lending(values, from: index + 1, body)
        }
        try outcome.get()
    }

    /// Steps once: `true` when a row is ready, `false` when done.
    @discardableResult
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(pointer)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(pointer)
            return false
        default:
            sqlite3_reset(pointer)
            throw connection.failure(code)
        }
    }
}

/// A statement's SQL as the cache's key, hashed by its length and a few of its bytes instead of
/// all of them: a statement runs at every write, and hashing its whole text cost more than
/// binding its values. Keys that hash alike are still told apart by the whole text.
private struct StatementKey: Hashable {
    let sql: String

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.sql == rhs.sql }

    func hash(into hasher: inout Hasher) {
        let sampled: Void? = sql.utf8.withContiguousStorageIfAvailable { Self.sample($0, into: &hasher) }
        if sampled == nil { Array(sql.utf8).withUnsafeBufferPointer { Self.sample($0, into: &hasher) } }
    }

    /// The length and about eight bytes spread over the text.
    private static func sample(_ bytes: UnsafeBufferPointer<UInt8>, into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        for index in stride(from: 0, to: bytes.count, by: max(bytes.count / 8, 1)) {
            hasher.combine(bytes[index])
        }
    }
}
