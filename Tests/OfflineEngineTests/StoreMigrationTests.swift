import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store schema migration")
struct StoreMigrationTests {
    /// The version-1 layout, written out literally as the first release shipped it.
    private static let version1 = """
        CREATE TABLE lists (key TEXT PRIMARY KEY NOT NULL, schema_name TEXT NOT NULL,
            table_name TEXT NOT NULL, rows BLOB NOT NULL, fetched_at REAL NOT NULL);
        CREATE INDEX lists_by_table ON lists(schema_name, table_name);
        CREATE TABLE queue (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, owner TEXT,
            schema_name TEXT NOT NULL, table_name TEXT NOT NULL, operation TEXT NOT NULL,
            payload BLOB NOT NULL, created_at REAL NOT NULL, attempts INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE replay_log (seq INTEGER PRIMARY KEY, id TEXT NOT NULL,
            schema_name TEXT NOT NULL, table_name TEXT NOT NULL, payload BLOB NOT NULL,
            tick INTEGER NOT NULL);
        CREATE INDEX replay_by_table ON replay_log(schema_name, table_name, seq);
        CREATE TABLE rejected (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
            payload BLOB NOT NULL, status INTEGER NOT NULL, code TEXT, message TEXT NOT NULL, details TEXT,
            hint TEXT, rejected_at REAL NOT NULL);
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB);
        PRAGMA user_version = 1;
        """

    @Test("a version-1 store file is migrated forward and keeps its data")
    func migratesVersion1() async throws {
        let folder = temporaryStoreFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let write = sampleWrite()
        let path = folder.appendingPathComponent(Storage.fileName).path
        let raw = try SQLiteConnection(path: path)
        try raw.execute(script: Self.version1)
        try raw.run(
            "INSERT INTO lists VALUES ('k', '', 'tasks', ?, 1700000000)",
            .blob(Data(#"[{"id":9007199254740993,"price":1.50}]"#.utf8)))
        try raw.run(
            "INSERT INTO queue (id, owner, schema_name, table_name, operation, payload, created_at) "
                + "VALUES (?, 'user-1', '', 'tasks', 'insert', ?, 1700000000)",
            .text(write.id.uuidString.lowercased()), .blob(write.persistedData()))
        try raw.run("INSERT INTO meta VALUES ('owner', ?)", .blob(Data("user-1".utf8)))
        _ = consume raw

        let store = try Store.open(.directory(folder))
        let list = try #require(try await store.lists.list(key: "k"))
        #expect(JSONText.string(.array(list.rows.map(\.json))) == #"[{"id":9007199254740993,"price":1.50}]"#)
        #expect(list.isStale == false && list.mark == 0)
        let queued = try await store.queue.all()
        #expect(queued.map(\.mutation.id) == [write.id])
        #expect(queued.first?.isInFlight == false)
        #expect(try await store.account.owner() == "user-1")
        #expect(try await store.marks.advance(table: "tasks") > 0)
        await store.close()

        let check = try SQLiteConnection(path: path)
        #expect(try StoreSchema.version(of: check) == StoreSchema.currentVersion)
    }

    @Test("version 4 sizes the lists already stored and orders them as read in the order they were fetched")
    func version4SizesAndOrdersStoredLists() async throws {
        let folder = temporaryStoreFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(Storage.fileName).path
        let raw = try SQLiteConnection(path: path)
        try raw.execute(script: Self.version1)
        for (key, fetched) in [("late", 1_700_000_300), ("early", 1_700_000_100), ("middle", 1_700_000_200)] {
            try raw.run(
                "INSERT INTO lists VALUES (?, '', 'tasks', ?, ?)", .text(key), .blob(Data("[1,2,3]".utf8)),
                .real(Double(fetched)))
        }
        _ = consume raw

        let store = try Store.open(.directory(folder))
        #expect(store.listBytes.value == "late".count + "early".count + "middle".count + 3 * 7)
        // A budget that fits two lists removes the list fetched first.
        let removed = try await store.lists.evict(.fit(bytes: 25, now: Date()), keeping: { [] })
        #expect(removed.map(\.key) == ["early"])
        await store.close()
    }
}
