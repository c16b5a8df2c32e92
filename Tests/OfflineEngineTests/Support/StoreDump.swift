import Foundation

@testable import OfflineEngine

/// Every table of a store file, column by column, as SQLite holds it: the form of the fixtures'
/// manifests (`scripts/store-fixtures/FixtureGenerator.swift` writes them), so a file can be
/// compared with what the code of its version wrote.
///
/// A cell is `n` (NULL), `i:<integer>`, `r:<real, shortest exact decimal>`, `t:<text>` or
/// `b:<blob in lowercase hex>`; a table's rows are ordered by all its columns, in column order.
struct StoreDump: Sendable, Equatable {
    /// One table: its columns in order and its rows.
    struct Table: Sendable, Equatable {
        var columns: [String]
        var rows: [[String]]

        /// The values of one column, in row order (`nil`: no such column).
        func column(_ name: String) -> [String]? {
            columns.firstIndex(of: name).map { index in rows.map { $0[index] } }
        }
    }

    /// `PRAGMA user_version`.
    var version: Int
    /// The tables by name.
    var tables: [String: Table]

    /// The dump of the store file at `path` (which must not be open elsewhere).
    static func read(path: String) throws -> StoreDump {
        let connection = try SQLiteConnection(path: path)
        let names = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ) { row in row.text(0) ?? "" }
        var tables: [String: Table] = [:]
        for name in names {
            let columns = try self.columns(of: name, connection).map { $0.name }
            let order = columns.joined(separator: ", ")
            let typed = columns.map { "typeof(\($0)), \($0)" }.joined(separator: ", ")
            let rows = try connection.query("SELECT \(typed) FROM \(name) ORDER BY \(order)") { row in
                (0..<Int32(columns.count)).map { cell(row, at: 2 * $0) }
            }
            tables[name] = Table(columns: columns, rows: rows)
        }
        return StoreDump(version: try StoreSchema.version(of: connection), tables: tables)
    }

    /// A table's columns in order, with the default value each declares (SQL text, `nil`: none).
    static func columns(of table: String, _ connection: SQLiteConnection) throws -> [(
        name: String, default: String?
    )] {
        try connection.query(
            "SELECT name, dflt_value FROM pragma_table_info(?) ORDER BY cid", .text(table)
        ) { row in (row.text(0) ?? "", row.text(1)) }
    }

    /// A manifest written beside a fixture.
    static func manifest(_ data: Data) throws -> StoreDump {
        struct Manifest: Decodable {
            struct Table: Decodable {
                var name: String
                var columns: [String]
                var rows: [[String]]
            }
            var version: Int
            var tables: [Table]
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: data)
        return StoreDump(
            version: manifest.version,
            tables: Dictionary(
                uniqueKeysWithValues: manifest.tables.map {
                    ($0.name, Table(columns: $0.columns, rows: $0.rows))
                }))
    }

    /// The cell at `index + 1`, whose SQLite type is at `index`.
    private static func cell(_ row: SQLiteRow, at index: Int32) -> String {
        switch row.text(index) ?? "" {
        case "integer": "i:\(row.integer(index + 1))"
        case "real": "r:\(row.real(index + 1))"
        case "text": "t:\(row.text(index + 1) ?? "")"
        case "blob": "b:" + row.blob(index + 1).map { String(format: "%02x", $0) }.joined()
        default: "n"
        }
    }
}
