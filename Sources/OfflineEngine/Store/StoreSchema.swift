/// The store's tables, versioned with `PRAGMA user_version` and moved forward by migrations.
///
/// A migration is only ever appended: version N's SQL never changes once shipped, so a file of any
/// older version is brought to the current one by running the steps after its version, in one
/// transaction. A file of a newer version is refused (`StoreError.newerSchema`).
enum StoreSchema {
    /// The version this code writes.
    static var currentVersion: Int { migrations.count }

    /// Step `i` moves a file from version `i` to version `i + 1`.
    static let migrations: [String] = [version1, version2, version3, version4, version5, version6, version7]

    /// Version 1: cached lists, the queue, the replay log, rejected writes and key-value metadata.
    static let version1 = """
        CREATE TABLE lists (
            key TEXT PRIMARY KEY NOT NULL,
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            rows BLOB NOT NULL,
            fetched_at REAL NOT NULL
        );
        CREATE INDEX lists_by_table ON lists(schema_name, table_name);
        CREATE TABLE queue (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            owner TEXT,
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            operation TEXT NOT NULL,
            payload BLOB NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE replay_log (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            payload BLOB NOT NULL,
            tick INTEGER NOT NULL
        );
        CREATE INDEX replay_by_table ON replay_log(schema_name, table_name, seq);
        CREATE TABLE rejected (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            payload BLOB NOT NULL,
            status INTEGER NOT NULL,
            code TEXT,
            message TEXT NOT NULL,
            details TEXT,
            hint TEXT,
            rejected_at REAL NOT NULL
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB);
        """

    /// Version 2: staleness and the fetch tick of lists, the in-flight marker of queued writes, and
    /// per-table change marks.
    static let version2 = """
        ALTER TABLE lists ADD COLUMN stale INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE lists ADD COLUMN mark INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE queue ADD COLUMN in_flight INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE marks (
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            tick INTEGER NOT NULL,
            PRIMARY KEY (schema_name, table_name)
        );
        """

    /// Version 3: the ids of accepted writes, so that a write's outcome can be told after a
    /// relaunch (the newest ``AcceptedTable/limit`` are kept).
    static let version3 = """
        CREATE TABLE accepted (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            accepted_at REAL NOT NULL,
            rows BLOB
        );
        """

    /// Version 4: what the cache's budget needs, one small row per list beside the list (so that
    /// sizing, ordering and evicting lists never reads their rows, and counting a read does not
    /// rewrite them): its size in bytes (its key and its rows' JSON), the order in which lists
    /// were last read (`read_seq`: larger is more recent), when it expires (wall time, `NULL`:
    /// never), and its fetch tick. Lists already stored count as read in the order they were
    /// fetched.
    static let version4 = """
        CREATE TABLE list_usage (
            key TEXT PRIMARY KEY NOT NULL,
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            read_seq INTEGER NOT NULL,
            expires_at REAL,
            mark INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX list_usage_by_read ON list_usage(read_seq);
        CREATE INDEX list_usage_by_expiry ON list_usage(expires_at) WHERE expires_at IS NOT NULL;
        INSERT INTO list_usage (key, schema_name, table_name, bytes, read_seq, expires_at, mark)
        SELECT key, schema_name, table_name, length(CAST(key AS BLOB)) + length(rows),
            ROW_NUMBER() OVER (ORDER BY fetched_at, key), NULL, mark
        FROM lists;
        """

    /// Version 5: the count a read asked for (`count:` or `head: true`), kept with its list as
    /// the rows the count holds beyond the list's own (`NULL`: not counted), so a change of the
    /// list's rows moves the count with them. Lists already stored were not counted.
    static let version5 = """
        ALTER TABLE lists ADD COLUMN count_beyond INTEGER;
        """

    /// Version 6: each user's data kept apart (``CacheSharing``). Lists and their usage rows are
    /// keyed by the user whose cache they belong to as well as by query key (`''`: the signed-out
    /// cache), and the replay log, rejected writes and accepted ids name their write's owner, so
    /// one user's data can be read, evicted and cleared alone. What the file held belongs to the
    /// cache's owner, the user whose session it holds; logged and rejected writes keep the owner
    /// their stored bytes name.
    static let version6 = """
        CREATE TABLE lists_by_user (
            key TEXT NOT NULL,
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            rows BLOB NOT NULL,
            fetched_at REAL NOT NULL,
            stale INTEGER NOT NULL DEFAULT 0,
            mark INTEGER NOT NULL DEFAULT 0,
            count_beyond INTEGER,
            user TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (user, key)
        );
        INSERT INTO lists_by_user
            (key, schema_name, table_name, rows, fetched_at, stale, mark, count_beyond, user)
        SELECT key, schema_name, table_name, rows, fetched_at, stale, mark, count_beyond,
            COALESCE((SELECT CAST(value AS TEXT) FROM meta WHERE meta.key = 'owner'), '')
        FROM lists;
        DROP TABLE lists;
        ALTER TABLE lists_by_user RENAME TO lists;
        CREATE INDEX lists_by_table ON lists(user, schema_name, table_name);
        CREATE TABLE list_usage_by_user (
            key TEXT NOT NULL,
            schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            read_seq INTEGER NOT NULL,
            expires_at REAL,
            mark INTEGER NOT NULL,
            user TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (user, key)
        ) WITHOUT ROWID;
        INSERT INTO list_usage_by_user
            (key, schema_name, table_name, bytes, read_seq, expires_at, mark, user)
        SELECT key, schema_name, table_name, bytes, read_seq, expires_at, mark,
            COALESCE((SELECT CAST(value AS TEXT) FROM meta WHERE meta.key = 'owner'), '')
        FROM list_usage;
        DROP TABLE list_usage;
        ALTER TABLE list_usage_by_user RENAME TO list_usage;
        CREATE INDEX list_usage_by_read ON list_usage(read_seq);
        CREATE INDEX list_usage_by_expiry ON list_usage(expires_at) WHERE expires_at IS NOT NULL;
        ALTER TABLE replay_log ADD COLUMN owner TEXT;
        UPDATE replay_log SET owner = json_extract(CAST(payload AS TEXT), '$.owner')
        WHERE json_valid(CAST(payload AS TEXT));
        ALTER TABLE rejected ADD COLUMN owner TEXT;
        UPDATE rejected SET owner = json_extract(CAST(payload AS TEXT), '$.owner')
        WHERE json_valid(CAST(payload AS TEXT));
        ALTER TABLE accepted ADD COLUMN owner TEXT;
        UPDATE accepted SET owner = (SELECT CAST(value AS TEXT) FROM meta WHERE meta.key = 'owner');
        """

    /// Version 7: accepted ids are found through an index of their first 8 characters (kept in
    /// `id_prefix`) instead of a unique index of all 36. A replay run adds its writes' ids at
    /// random places in that index, and the smaller one has about a third of the pages to change
    /// and commit. A write leaves the queue once, so its id is recorded once; a lookup compares
    /// the whole id.
    static let version7 = """
        CREATE TABLE accepted_by_prefix (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            accepted_at REAL NOT NULL,
            rows BLOB,
            owner TEXT,
            id_prefix TEXT NOT NULL DEFAULT ''
        );
        INSERT INTO accepted_by_prefix (seq, id, accepted_at, rows, owner, id_prefix)
        SELECT seq, id, accepted_at, rows, owner, substr(id, 1, 8) FROM accepted;
        DROP TABLE accepted;
        ALTER TABLE accepted_by_prefix RENAME TO accepted;
        CREATE INDEX accepted_by_id_prefix ON accepted(id_prefix);
        """

    /// Brings the connection's database to the current version, or refuses a newer one.
    static func migrate(_ connection: SQLiteConnection) throws(StoreError) {
        let found = try version(of: connection)
        guard found <= currentVersion else {
            throw .newerSchema(found: found, supported: currentVersion)
        }
        guard found < currentVersion else { return }
        try connection.execute(script: "BEGIN IMMEDIATE")
        do {
            for step in migrations[found...] { try connection.execute(script: step) }
            try connection.execute(script: "PRAGMA user_version = \(currentVersion)")
            try connection.execute(script: "COMMIT")
        } catch {
            try? connection.execute(script: "ROLLBACK")
            throw error
        }
    }

    /// The file's schema version (0 for a new file).
    static func version(of connection: SQLiteConnection) throws(StoreError) -> Int {
        let rows = try connection.query("PRAGMA user_version") { row in Int(row.integer(0)) }
        return rows.first ?? 0
    }
}
