import CLibPQ
import Foundation

/// An error PostgreSQL (or libpq) reported: the SQLSTATE and the server's message fields.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// The five-character SQLSTATE (`23505`, `42501`, ...), when the server sent one.
    public let sqlState: String?
    /// The primary message.
    public let message: String
    /// The detail field (`Key (id)=(1) already exists.`), if any.
    public let detail: String?
    /// The hint field, if any.
    public let hint: String?

    /// An error from its parts.
    public init(sqlState: String?, message: String, detail: String? = nil, hint: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
    }

    public var description: String { "PostgresError(\(sqlState ?? "-")): \(message)" }
}

/// A libpq connection. Calls are serialised by a lock, so it may be shared between tasks; a
/// ``transaction(_:)`` holds the lock from `BEGIN` to `COMMIT`.
public final class PostgresConnection: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: OpaquePointer

    /// Connects with a libpq connection string (`host=/tmp/pg port=5432 user=postgres dbname=x`).
    public init(_ connectionInfo: String) throws(PostgresError) {
        guard let connection = PQconnectdb(connectionInfo) else {
            throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(sqlState: nil, message: message)
        }
        self.connection = connection
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(connection) }

    /// Runs `sql` with `parameters` bound as untyped (`unknown`) text values, as PostgREST binds
    /// filter values; returns the rows as text cells (`nil` for SQL NULL).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        lock.lock()
        defer { lock.unlock() }
        return try run(sql, parameters)
    }

    /// Runs `work` between `BEGIN` and `COMMIT` with no other call in between; a thrown error
    /// rolls the transaction back.
    public func transaction<T>(
        _ work: (_ execute: (String, [String?]) throws(PostgresError) -> [[String?]]) throws -> T
    ) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        _ = try run("BEGIN", [])
        do {
            let result = try work { (sql, parameters) throws(PostgresError) in try run(sql, parameters) }
            _ = try run("COMMIT", [])
            return result
        } catch {
            _ = try? run("ROLLBACK", [])
            throw error
        }
    }

    private func run(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> [[String?]] {
        let copies = parameters.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer<CChar>($0) }
        let result = values.withUnsafeBufferPointer { buffer in
            PQexecParams(connection, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard let result else {
            throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(connection)))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            func field(_ code: Character) -> String? {
                PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
            }
            throw PostgresError(
                sqlState: field("C"), message: field("M") ?? "unknown error", detail: field("D"),
                hint: field("H"))
        }
        var rows = [[String?]]()
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var cells = [String?]()
            for column in 0..<columnCount {
                cells.append(
                    PQgetisnull(result, row, column) == 1
                        ? nil : String(cString: PQgetvalue(result, row, column)))
            }
            rows.append(cells)
        }
        return rows
    }
}
