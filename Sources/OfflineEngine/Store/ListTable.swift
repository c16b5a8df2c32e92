import Foundation

/// The cached lists of one user's cache: one row per query key, with its rows, fetch time, change
/// mark and stale flag.
///
/// A view of an open `Store` (`store.lists(of:)`, `store.lists` for the signed-out cache); its calls
/// join the store's writer in call order. Every user's lists share the store's budget.
package struct ListTable: Sendable {
    let store: Store
    /// Whose cache this view reads and writes (``Store/partition(of:)``).
    package let user: String

    /// Saves a fetched list (replacing the one with the same key) in one transaction.
    nonisolated(nonsending) package func save(_ list: StoredList) async throws(StoreError) {
        try await save([list])
    }

    /// Saves several lists (for example a whole page of results) in one transaction. Each counts
    /// as read now (``evict(toFit:keeping:now:)`` drops the least recently read first), and the
    /// store's ``Store/listBytes`` moves by the change in size.
    nonisolated(nonsending) package func save(_ lists: [StoredList]) async throws(StoreError) {
        let encoded = Self.encoded(lists)
        try await store.perform(writes: true, atomic: true) { [store, user] connection throws(StoreError) in
            try Self.write(encoded, user: user, store: store, connection)
        }
    }

    /// Lists with their rows as the JSON they are stored as, made before the job.
    static func encoded(_ lists: [StoredList]) -> [(StoredList, Data)] {
        lists.map { list in (list, JSONText.data(.array(list.rows.map(\.json)))) }
    }

    /// Saves lists of `user`'s cache inside a job (see ``save(_:)``).
    static func write(
        _ encoded: [(StoredList, Data)], user: String, store: Store, _ connection: SQLiteConnection
    ) throws(StoreError) {
        var change = 0
        for (list, rows) in encoded {
            let bytes = Self.size(key: list.key, rows: rows)
            let before = try connection.query(
                "SELECT bytes FROM list_usage WHERE user = ? AND key = ?", .text(user), .text(list.key)
            ) { row in Int(row.integer(0)) }
            try connection.run(
                """
                INSERT OR REPLACE INTO lists
                    (user, key, schema_name, table_name, rows, fetched_at, mark, stale, count_beyond)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .text(user), .text(list.key), .text(Store.schemaKey(list.schema)), .text(list.table),
                .blob(rows),
                .real(list.fetchedAt.timeIntervalSince1970), .integer(list.mark),
                .integer(list.isStale ? 1 : 0), list.countBeyond.map { .integer(Int64($0)) } ?? .null)
            try connection.run(
                """
                INSERT OR REPLACE INTO list_usage
                    (user, key, schema_name, table_name, bytes, read_seq, expires_at, mark)
                VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(read_seq), 0) + 1 FROM list_usage), ?, ?)
                """,
                .text(user), .text(list.key), .text(Store.schemaKey(list.schema)), .text(list.table),
                .integer(Int64(bytes)), list.expiresAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                .integer(list.mark))
            change += bytes - (before.first ?? 0)
        }
        store.listBytes.add(change)
    }

    /// The bytes a list takes in the budget: its key and its rows' JSON.
    package static func size(key: String, rows: Data) -> Int { key.utf8.count + rows.count }

    /// The cached list for a query key, or `nil` when none was saved.
    nonisolated(nonsending) package func list(key: String) async throws(StoreError) -> StoredList? {
        let records = try await store.perform(writes: false) { [user] connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.listColumns) FROM \(Self.listsWithUsage) WHERE lists.user = ? AND lists.key = ?",
                .text(user), .text(key), row: Self.listRecord)
        }
        return try records.first.map(Self.storedList)
    }

    /// Every cached list of a table, in key order.
    nonisolated(nonsending) package func all(table: String, schema: String? = nil) async throws(StoreError)
        -> [StoredList]
    {
        let records = try await store.perform(writes: false) { [user] connection throws(StoreError) in
            try connection.query(
                """
                SELECT \(Self.listColumns) FROM \(Self.listsWithUsage)
                WHERE lists.user = ? AND lists.schema_name = ? AND lists.table_name = ? ORDER BY lists.key
                """,
                .text(user), .text(Store.schemaKey(schema)), .text(table), row: Self.listRecord)
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
        try await store.perform(writes: true) { [user] connection throws(StoreError) in
            try connection.run(
                "UPDATE lists SET stale = 1 WHERE user = ? AND schema_name = ? AND table_name = ?",
                .text(user), .text(Store.schemaKey(schema)), .text(table))
            return connection.changes
        }
    }

    /// Marks every cached list of this cache stale, for example when another user takes over the
    /// cache.
    @discardableResult
    nonisolated(nonsending) package func markAllStale() async throws(StoreError) -> Int {
        try await store.perform(writes: true) { [user] connection throws(StoreError) in
            try connection.run("UPDATE lists SET stale = 1 WHERE user = ?", .text(user))
            return connection.changes
        }
    }

    /// Hands this cache's lists, marked stale, to `newUser`, whose own lists they replace (the
    /// hand-over of ``CacheSharing/handOver``). Returns how many lists moved.
    @discardableResult
    nonisolated(nonsending) package func handOver(to newUser: String) async throws(StoreError) -> Int {
        try await store.perform(writes: true, atomic: true) { [store, user] connection throws(StoreError) in
            try Self.handOver(from: user, to: newUser, store: store, connection)
        }
    }

    /// ``handOver(to:)`` inside a job already running (a sign-in's one commit).
    static func handOver(from user: String, to newUser: String, store: Store, _ connection: SQLiteConnection)
        throws(StoreError) -> Int
    {
        try connection.run("UPDATE lists SET stale = 1 WHERE user = ?", .text(user))
        guard newUser != user else { return connection.changes }
        for table in ["lists", "list_usage"] {
            try connection.run("DELETE FROM \(table) WHERE user = ?", .text(newUser))
            try connection.run("UPDATE \(table) SET user = ? WHERE user = ?", .text(newUser), .text(user))
        }
        let moved = connection.changes
        store.listBytes.set(try ListTable.totalBytes(connection))
        return moved
    }

    /// Forgets a cached list. Returns `false` when there was none.
    @discardableResult
    nonisolated(nonsending) package func remove(key: String) async throws(StoreError) -> Bool {
        try await store.perform(writes: true) { [store, user] connection throws(StoreError) in
            try connection.run("DELETE FROM lists WHERE user = ? AND key = ?", .text(user), .text(key))
            let removed = connection.changes > 0
            let freed = try connection.query(
                "DELETE FROM list_usage WHERE user = ? AND key = ? RETURNING bytes", .text(user), .text(key)
            ) {
                row in Int(row.integer(0))
            }
            store.listBytes.add(-freed.reduce(0, +))
            return removed
        }
    }

    private static let listColumns = """
        lists.key, lists.schema_name, lists.table_name, lists.rows, lists.fetched_at, lists.mark, lists.stale,
        list_usage.expires_at, lists.count_beyond
        """
    private static let listsWithUsage =
        "lists LEFT JOIN list_usage ON list_usage.user = lists.user AND list_usage.key = lists.key"

    private struct ListRecord: Sendable {
        var key: String
        var schema: String
        var table: String
        var rows: Data
        var fetchedAt: Double
        var mark: Int64
        var stale: Bool
        var expiresAt: Double?
        var countBeyond: Int?
    }

    private static func listRecord(_ row: SQLiteRow) -> ListRecord {
        ListRecord(
            key: row.text(0) ?? "", schema: row.text(1) ?? "", table: row.text(2) ?? "", rows: row.blob(3),
            fetchedAt: row.real(4), mark: row.integer(5), stale: row.integer(6) != 0,
            expiresAt: row.isNull(7) ? nil : row.real(7),
            countBeyond: row.isNull(8) ? nil : Int(row.integer(8)))
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
            isStale: record.stale, expiresAt: record.expiresAt.map(Date.init(timeIntervalSince1970:)),
            countBeyond: record.countBeyond)
    }
}
