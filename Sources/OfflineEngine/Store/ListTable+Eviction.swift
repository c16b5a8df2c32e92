import Foundation

/// Which cached lists an eviction may remove.
package enum EvictionScope: Sendable, Hashable {
    /// Expired lists, then the least recently read, until the lists' bytes are at most `bytes`.
    case fit(bytes: Int, now: Date)
    /// Every list of one table, in the cache the eviction's ``ListTable`` names.
    case table(schema: String?, table: String)
    /// Every list, every user's.
    case all
}

/// A cached list an eviction removed.
package struct EvictedList: Sendable, Hashable {
    package var key: String
    /// Whose cache it was in (``Store/partition(of:)``).
    package var user: String
    package var schema: String?
    package var table: String
    /// The fetch tick the removed list was saved with (a list saved again since has another).
    package var mark: Int64
}

extension ListTable {
    /// Removes the lists `scope` names (every user's lists count in a `fit`), in one store
    /// transaction, except pinned ones: the lists of a
    /// table with a queued write or a write in the replay log (the overlay lays them over those
    /// lists), and the lists whose keys `keeping` returns (asked inside the transaction, so a
    /// live read that started before the removal is seen). Returns what was removed; the
    /// store's ``Store/listBytes`` is then the sum the database holds.
    ///
    /// Cost: the pinned tables are read once (the queue and the replay log, by table); a `fit`
    /// walks lists from the least recently read (an index) only as far as it must remove.
    ///
    /// With `compacting`, the pages the removal freed (and any freed before) are then given back
    /// to the file system and the write-ahead log is emptied, so the store's files shrink: in the
    /// same transaction (incremental vacuum), the log's checkpoint after it; a file made before
    /// incremental vacuum is rebuilt once instead (see `StoreJob.vacuumsAfterCommit`).
    nonisolated(nonsending) package func evict(
        _ scope: EvictionScope, compacting: Bool = false, keeping: @escaping @Sendable () -> Set<String>
    ) async throws(StoreError) -> [EvictedList] {
        // Not in a savepoint: one would copy every page the removal touches into its journal (a
        // large eviction then writes its lists twice). A failure part way keeps what was removed;
        // each list's row goes before its usage row, so a usage row left behind is counted and
        // removed by the next pass, never a list left uncounted.
        try await store.perform(writes: true, vacuum: compacting) {
            [store, user] connection throws(StoreError) in
            let pinned = try Self.pinnedTables(connection)
            let kept = keeping()
            let removable = { (list: ListCandidate) in
                !kept.contains(list.evicted.key) && !pinned.contains(list.table)
            }
            var removed: [ListCandidate] = []
            switch scope {
            case .table(let schema, let table):
                removed = try Self.candidates(
                    connection, where: "user = ? AND schema_name = ? AND table_name = ?", .text(user),
                    .text(Store.schemaKey(schema)), .text(table)
                ).filter(removable)
            case .all:
                removed = try Self.candidates(connection, where: "1").filter(removable)
            case .fit(let budget, let now):
                removed = try Self.candidates(
                    connection, where: "expires_at IS NOT NULL AND expires_at <= ?",
                    .real(now.timeIntervalSince1970)
                ).filter(removable)
                let total = try Self.totalBytes(connection)
                var over = total - removed.reduce(0) { $0 + $1.bytes } - budget
                var after: Int64 = .min
                let expired = Set(removed.map(\.evicted))
                while over > 0 {
                    let page = try Self.candidates(
                        connection, where: "read_seq > ? ORDER BY read_seq LIMIT 256", .integer(after))
                    guard let last = page.last else { break }
                    after = last.readSeq
                    for list in page where over > 0 && removable(list) && !expired.contains(list.evicted) {
                        removed.append(list)
                        over -= list.bytes
                    }
                }
            }
            for list in removed {
                let (owner, key) = (SQLiteValue.text(list.evicted.user), SQLiteValue.text(list.evicted.key))
                try connection.run("DELETE FROM lists WHERE user = ? AND key = ?", owner, key)
                try connection.run("DELETE FROM list_usage WHERE user = ? AND key = ?", owner, key)
            }
            store.listBytes.set(try Self.totalBytes(connection))
            if compacting, try connection.query("PRAGMA auto_vacuum", row: { $0.integer(0) }) == [2] {
                try connection.execute(script: "PRAGMA incremental_vacuum")
            }
            return removed.map(\.evicted)
        }
    }

    /// The bytes the cached lists take, as the database holds them.
    nonisolated(nonsending) package func totalBytes() async throws(StoreError) -> Int {
        try await store.perform(writes: false) { connection throws(StoreError) in
            try Self.totalBytes(connection)
        }
    }

    /// Counts the lists of `keys` (in every user's cache) as read now, in that order (the last is the most recent),
    /// without waiting for the store: the order only decides which lists an eviction removes
    /// first, so a failure here loses nothing.
    package func noteRead(_ keys: [String]) {
        guard !keys.isEmpty else { return }
        store.submit(writes: true) { connection throws(StoreError) in
            for key in keys {
                try connection.run(
                    """
                    UPDATE list_usage SET read_seq = (SELECT COALESCE(MAX(read_seq), 0) + 1 FROM list_usage)
                    WHERE key = ?
                    """, .text(key))
            }
        }
    }

    /// Whether any list (every user's) has expired by `now`: read without a write transaction,
    /// so a pass with nothing to remove costs no commit.
    nonisolated(nonsending) package func anyExpired(by now: Date) async throws(StoreError) -> Bool {
        try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                "SELECT 1 FROM list_usage WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT 1",
                .real(now.timeIntervalSince1970)
            ) { _ in true }.isEmpty == false
        }
    }

    /// Whether a quarter of the database file or more is free pages: worth giving back.
    nonisolated(nonsending) package func mostlyFree() async throws(StoreError) -> Bool {
        try await store.perform(writes: false) { connection throws(StoreError) in
            let free = try connection.query("PRAGMA freelist_count") { row in row.integer(0) }.first ?? 0
            let pages = try connection.query("PRAGMA page_count") { row in row.integer(0) }.first ?? 0
            return free > 0 && free * 4 >= pages
        }
    }

    private struct ListCandidate: Sendable {
        var evicted: EvictedList
        var table: TableID
        var bytes: Int
        var readSeq: Int64
    }

    private static func candidates(
        _ connection: SQLiteConnection, where condition: String, _ values: SQLiteValue...
    ) throws(StoreError) -> [ListCandidate] {
        try connection.query(
            "SELECT key, schema_name, table_name, bytes, read_seq, mark, user FROM list_usage WHERE \(condition)",
            values
        ) { row in
            let schema = row.text(1).flatMap { $0.isEmpty ? nil : $0 }
            let table = row.text(2) ?? ""
            return ListCandidate(
                evicted: EvictedList(
                    key: row.text(0) ?? "", user: row.text(6) ?? "", schema: schema, table: table,
                    mark: row.integer(5)),
                table: TableID(schema: schema, table: table), bytes: Int(row.integer(3)),
                readSeq: row.integer(4))
        }
    }

    /// The tables with a queued write or a write in the replay log.
    private static func pinnedTables(_ connection: SQLiteConnection) throws(StoreError) -> Set<TableID> {
        let tables = try connection.query(
            """
            SELECT DISTINCT schema_name, table_name FROM queue
            UNION SELECT DISTINCT schema_name, table_name FROM replay_log
            """
        ) { row in
            TableID(schema: row.text(0).flatMap { $0.isEmpty ? nil : $0 }, table: row.text(1) ?? "")
        }
        return Set(tables)
    }

    static func totalBytes(_ connection: SQLiteConnection) throws(StoreError) -> Int {
        Int(
            try connection.query("SELECT COALESCE(SUM(bytes), 0) FROM list_usage") { row in row.integer(0) }
                .first ?? 0)
    }
}
