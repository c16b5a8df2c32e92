import Foundation

/// The cached lists of the store: one row per query key, with its rows, fetch time, change mark and stale flag.
///
/// A view of an open `Store` (`store.lists`); its calls join the store's writer in call order.
package struct ListTable: Sendable {
    let store: Store

    /// Saves a fetched list (replacing the one with the same key) in one transaction.
    nonisolated(nonsending) package func save(_ list: StoredList) async throws(StoreError) {
        try await save([list])
    }

    /// Saves several lists (for example a whole page of results) in one transaction.
    nonisolated(nonsending) package func save(_ lists: [StoredList]) async throws(StoreError) {
        let encoded = lists.map { list in (list, JSONText.data(.array(list.rows.map(\.json)))) }
        try await store.perform(writes: true, atomic: true) { connection throws(StoreError) in
            for (list, rows) in encoded {
                try connection.run(
                    """
                    INSERT OR REPLACE INTO lists (key, schema_name, table_name, rows, fetched_at, mark, stale)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    .text(list.key), .text(Store.schemaKey(list.schema)), .text(list.table), .blob(rows),
                    .real(list.fetchedAt.timeIntervalSince1970), .integer(list.mark),
                    .integer(list.isStale ? 1 : 0))
            }
        }
    }

    /// The cached list for a query key, or `nil` when none was saved.
    nonisolated(nonsending) package func list(key: String) async throws(StoreError) -> StoredList? {
        let records = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.listColumns) FROM lists WHERE key = ?", .text(key), row: Self.listRecord)
        }
        return try records.first.map(Self.storedList)
    }

    /// Every cached list of a table, in key order.
    nonisolated(nonsending) package func all(table: String, schema: String? = nil) async throws(StoreError)
        -> [StoredList]
    {
        let records = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.listColumns) FROM lists WHERE schema_name = ? AND table_name = ? ORDER BY key",
                .text(Store.schemaKey(schema)), .text(table), row: Self.listRecord)
        }
        var lists: [StoredList] = []
        for record in records { lists.append(try Self.storedList(record)) }
        return lists
    }

    /// Marks every list of a table stale (fetch again before trusting). Returns how many.
    @discardableResult
    nonisolated(nonsending) package func markStale(table: String, schema: String? = nil)
        async throws(StoreError)
        -> Int
    {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try connection.run(
                "UPDATE lists SET stale = 1 WHERE schema_name = ? AND table_name = ?",
                .text(Store.schemaKey(schema)), .text(table))
            return connection.changes
        }
    }

    /// Marks every cached list stale, for example when another user takes over the cache.
    @discardableResult
    nonisolated(nonsending) package func markAllStale() async throws(StoreError) -> Int {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try connection.run("UPDATE lists SET stale = 1")
            return connection.changes
        }
    }

    /// Forgets a cached list. Returns `false` when there was none.
    @discardableResult
    nonisolated(nonsending) package func remove(key: String) async throws(StoreError) -> Bool {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try connection.run("DELETE FROM lists WHERE key = ?", .text(key))
            return connection.changes > 0
        }
    }

    private static let listColumns = "key, schema_name, table_name, rows, fetched_at, mark, stale"

    private struct ListRecord: Sendable {
        var key: String
        var schema: String
        var table: String
        var rows: Data
        var fetchedAt: Double
        var mark: Int64
        var stale: Bool
    }

    private static func listRecord(_ row: SQLiteRow) -> ListRecord {
        ListRecord(
            key: row.text(0) ?? "", schema: row.text(1) ?? "", table: row.text(2) ?? "", rows: row.blob(3),
            fetchedAt: row.real(4), mark: row.integer(5), stale: row.integer(6) != 0)
    }

    private static func storedList(_ record: ListRecord) throws(StoreError) -> StoredList {
        let rows: [Row]
        do {
            rows = try Row.rows(from: JSONText.parse(record.rows))
        } catch {
            throw .corrupt
        }
        return StoredList(
            key: record.key, schema: record.schema.isEmpty ? nil : record.schema, table: record.table,
            rows: rows, fetchedAt: Date(timeIntervalSince1970: record.fetchedAt), mark: record.mark,
            isStale: record.stale)
    }
}
