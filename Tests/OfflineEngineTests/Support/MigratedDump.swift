import Foundation

@testable import OfflineEngine

/// What a store file must hold once today's code has migrated it, column by column, from what
/// the file held before (its fixture's manifest) and the current layout:
/// - a column the file had keeps every value;
/// - a column a migration added holds its declared default in every row;
/// - a table a migration added is empty, unless it is made from other tables (``derived``).
enum MigratedDump {
    /// The tables a migration fills from what the file holds, by name.
    static let derived: [String: @Sendable (StoreDump) -> StoreDump.Table] = [
        "list_usage": listUsage
    ]

    /// The expected dump of a file that held `old`, migrated to the layout of `connection`.
    static func expected(from old: StoreDump, layout connection: SQLiteConnection) throws -> StoreDump {
        let names = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ) { row in row.text(0) ?? "" }
        var migrated = StoreDump(version: StoreSchema.currentVersion, tables: [:])
        for name in names {
            let layout = try StoreDump.columns(of: name, connection)
            guard let table = old.tables[name] else {
                migrated.tables[name] = StoreDump.Table(columns: layout.map { $0.name }, rows: [])
                continue
            }
            // Columns are only ever added after the old ones, so the rows keep their order.
            let added = layout.filter { !table.columns.contains($0.name) }
            let defaults = try added.map { column in try cell(sqlDefault: column.default) }
            migrated.tables[name] = StoreDump.Table(
                columns: table.columns + added.map { $0.name }, rows: table.rows.map { $0 + defaults })
        }
        for (name, make) in derived where old.tables[name] == nil && migrated.tables[name] != nil {
            migrated.tables[name] = make(migrated)
        }
        for (name, columns) in filled {
            guard var table = migrated.tables[name] else { continue }
            for (column, fill) in columns where old.tables[name]?.columns.contains(column) != true {
                if !table.columns.contains(column) {
                    table.columns.append(column)
                    table.rows = table.rows.map { $0 + ["n"] }
                }
                guard let index = table.columns.firstIndex(of: column) else { continue }
                table.rows = table.rows.map { row in
                    var row = row
                    row[index] = fill(old, Dictionary(zip(table.columns, row), uniquingKeysWith: { $1 }))
                    return row
                }
            }
            migrated.tables[name] = table
        }
        return migrated
    }

    /// Columns a migration fills from what the file held rather than with their default, by table
    /// and column: each row's cell, from the old dump and the row's cells by column name.
    /// Version 6: lists belong to the cache's owner (`''`: none); logged and rejected writes to
    /// the owner their stored bytes name; accepted ids to the cache's owner. Version 7: an
    /// accepted id's first 8 characters.
    static let filled: [String: [String: @Sendable (StoreDump, [String: String]) -> String]] = [
        "lists": ["user": { old, _ in ownerCell(old) ?? "t:" }],
        "list_usage": ["user": { old, _ in ownerCell(old) ?? "t:" }],
        "replay_log": ["owner": { _, row in payloadOwner(row["payload"]) }],
        "rejected": ["owner": { _, row in payloadOwner(row["payload"]) }],
        "accepted": [
            "owner": { old, _ in ownerCell(old) ?? "n" },
            "id_prefix": { _, row in "t:" + (row["id"] ?? "").dropFirst(2).prefix(8) },
        ],
    ]

    /// The cache's owner in `meta`, as a text cell, or `nil` when none is kept.
    private static func ownerCell(_ dump: StoreDump) -> String? {
        guard let meta = dump.tables["meta"], let keys = meta.column("key"),
            let values = meta.column("value"),
            let index = keys.firstIndex(of: "t:owner"), let bytes = blob(values[index])
        else { return nil }
        return "t:" + String(decoding: bytes, as: UTF8.self)
    }

    /// The owner a stored write's bytes name, as a cell (`n`: none).
    private static func payloadOwner(_ cell: String?) -> String {
        guard let bytes = cell.flatMap(blob),
            let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            let owner = object["owner"] as? String
        else { return "n" }
        return "t:" + owner
    }

    /// A blob cell's bytes (`b:<hex>`).
    private static func blob(_ cell: String) -> Data? {
        guard cell.hasPrefix("b:") else { return nil }
        let hex = Array(cell.dropFirst(2).utf8)
        var bytes = Data()
        var index = 0
        while index + 1 < hex.count {
            guard let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }

    /// A declared default as a dump's cell.
    private static func cell(sqlDefault text: String?) throws -> String {
        guard let text else { return "n" }
        if let integer = Int64(text) { return "i:\(integer)" }
        if let real = Double(text) { return "r:\(real)" }
        if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 {
            return "t:" + text.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
        }
        throw UnknownDefault(text: text)
    }

    /// A default this test cannot read as a cell: say what the migration makes of it in ``derived``.
    struct UnknownDefault: Error, CustomStringConvertible {
        var text: String
        var description: String { "a column's default the test cannot read: \(text)" }
    }

    /// Version 4's `list_usage`: one row per list, its size the bytes of its key and its rows,
    /// read in the order the lists were fetched, no expiry, the list's fetch tick.
    private static func listUsage(_ dump: StoreDump) -> StoreDump.Table {
        let columns = ["key", "schema_name", "table_name", "bytes", "read_seq", "expires_at", "mark"]
        guard let lists = dump.tables["lists"], let keys = lists.column("key"),
            let schemas = lists.column("schema_name"), let tables = lists.column("table_name"),
            let rows = lists.column("rows"), let fetched = lists.column("fetched_at"),
            let marks = lists.column("mark")
        else { return StoreDump.Table(columns: columns, rows: []) }
        let key = { (index: Int) in String(keys[index].dropFirst(2)) }
        let fetchedAt = { (index: Int) in Double(fetched[index].dropFirst(2)) ?? 0 }
        let readOrder = lists.rows.indices.sorted { left, right in
            fetchedAt(left) != fetchedAt(right)
                ? fetchedAt(left) < fetchedAt(right)
                : Array(key(left).utf8).lexicographicallyPrecedes(Array(key(right).utf8))
        }
        let usage = lists.rows.indices.map { index in
            let bytes = key(index).utf8.count + (rows[index].count - 2) / 2
            let readSequence = (readOrder.firstIndex(of: index) ?? 0) + 1
            return [
                keys[index], schemas[index], tables[index], "i:\(bytes)", "i:\(readSequence)", "n",
                marks[index],
            ]
        }
        // Ordered as a dump orders them: by key first (the lists' keys are unique).
        let ordered = usage.sorted { Array($0[0].utf8).lexicographicallyPrecedes(Array($1[0].utf8)) }
        return StoreDump.Table(columns: columns, rows: ordered)
    }
}
