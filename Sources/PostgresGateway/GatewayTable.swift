import Foundation

/// What PostgREST's schema cache knows of a table that a write needs: its columns and its
/// primary key, read from the catalog in the request's transaction.
struct GatewayTable {
    /// The table's name.
    let name: String
    /// Its columns, in order.
    let columns: [String]
    /// The columns of an array type, whose JSON arrays are written as array literals.
    let arrayColumns: Set<String>
    /// Its primary key's columns, in order (empty when it has none).
    let primaryKey: [String]

    /// Reads `table` of `schema`; an unknown table fails as PostgreSQL's 42P01.
    init(
        _ table: String, schema: String?,
        execute: (String, [String?]) throws(PostgresError) -> [[String?]]
    ) throws(PostgresError) {
        name = table
        let rows = try execute(
            """
            SELECT a.attname, coalesce(a.attnum = ANY(i.indkey), false), t.typcategory = 'A'
            FROM pg_attribute a
            JOIN pg_type t ON t.oid = a.atttypid
            LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
            WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, [GatewaySQL.table(table, schema: schema)])
        columns = rows.compactMap { $0.first ?? nil }
        primaryKey = rows.filter { $0.count > 1 && $0[1] == "t" }.compactMap { $0.first ?? nil }
        arrayColumns = Set(rows.filter { $0.count > 2 && $0[2] == "t" }.compactMap { $0.first ?? nil })
    }

    /// PostgREST's `PGRST204` for a named column the table lacks.
    func check(columns names: [String]) throws(GatewayRefusal) {
        if let unknown = names.first(where: { !columns.contains($0) }) {
            throw GatewayRefusal(
                status: 400, code: "PGRST204",
                message: "Could not find the '\(unknown)' column of '\(name)' in the schema cache")
        }
    }
}
