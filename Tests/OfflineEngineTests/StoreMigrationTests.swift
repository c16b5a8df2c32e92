import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store schema migration", .timeLimit(.minutes(10)))
struct StoreMigrationTests {
    /// The version-1 layout, written out literally as the first release shipped it.
    /// The migrated cache's owner's list `k` (each user's lists are kept apart from version 6
    /// on), checked to hold the stored row with its numbers exact.
    private static func ownersList(in store: Store) async throws -> StoredList {
        let list = try #require(try await store.lists(of: "user-1").list(key: "k"))
        #expect(JSONText.string(.array(list.rows.map(\.json))) == #"[{"id":9007199254740993,"price":1.50}]"#)
        return list
    }

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
        try await withStoreFolder(temporaryStoreFolder()) { folder in
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
            let list = try await Self.ownersList(in: store)
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
    }

    @Test("version 4 sizes the lists already stored and orders them as read in the order they were fetched")
    func version4SizesAndOrdersStoredLists() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent(Storage.fileName).path
            let raw = try SQLiteConnection(path: path)
            try raw.execute(script: Self.version1)
            for (key, fetched) in [
                ("late", 1_700_000_300), ("early", 1_700_000_100), ("middle", 1_700_000_200),
            ] {
                try raw.run(
                    "INSERT INTO lists VALUES (?, '', 'tasks', ?, ?)", .text(key),
                    .blob(Data("[1,2,3]".utf8)),
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

    @Test(
        "a version-4 store file keeps every list, write, mark and setting, and its lists read as never counted"
    )
    func migratesVersion4() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let (queued, replayed, rejected) = (
                sampleWrite(), sampleWrite(title: "sent"), sampleWrite(title: "no")
            )
            let path = folder.appendingPathComponent(Storage.fileName).path
            let raw = try SQLiteConnection(path: path)
            // Version 4 as the code before version 5 made it: shipped steps never change.
            try raw.execute(script: Self.version1)
            for step in [StoreSchema.version2, StoreSchema.version3, StoreSchema.version4] {
                try raw.execute(script: step)
            }
            try raw.execute(script: "PRAGMA user_version = 4")
            let rows = Data(#"[{"id":9007199254740993,"price":1.50}]"#.utf8)
            try raw.run(
                "INSERT INTO lists (key, schema_name, table_name, rows, fetched_at, stale, mark) "
                    + "VALUES ('k', '', 'tasks', ?, 1700000000, 1, 7)", .blob(rows))
            try raw.run(
                "INSERT INTO list_usage VALUES ('k', '', 'tasks', ?, 3, 1800000000, 7)",
                .integer(Int64(1 + rows.count)))
            // Each write goes in by its id and its stored form.
            func insert(_ write: Mutation, _ sql: String) throws {
                try raw.run(sql, .text(write.id.uuidString.lowercased()), .blob(write.persistedData()))
            }
            try insert(
                queued,
                "INSERT INTO queue (id, owner, schema_name, table_name, operation, payload, created_at, in_flight) "
                    + "VALUES (?, 'user-1', '', 'tasks', 'insert', ?, 1700000000, 1)")
            try insert(
                replayed,
                "INSERT INTO replay_log (id, schema_name, table_name, payload, tick) VALUES (?, '', 'tasks', ?, 5)"
            )
            try insert(
                rejected,
                "INSERT INTO rejected (id, payload, status, code, message, rejected_at) "
                    + "VALUES (?, ?, 403, '42501', 'denied', 1700000000)")
            try raw.run(
                "INSERT INTO accepted (id, accepted_at, rows) VALUES (?, 1700000000, ?)",
                .text(replayed.id.uuidString.lowercased()), .blob(Data(#"[{"id":1}]"#.utf8)))
            try raw.run("INSERT INTO marks VALUES ('', 'tasks', 41)")
            try raw.run("INSERT INTO meta VALUES ('owner', ?)", .blob(Data("user-1".utf8)))
            _ = consume raw

            let store = try Store.open(.directory(folder))
            let list = try await Self.ownersList(in: store)
            #expect(list.isStale && list.mark == 7 && list.countBeyond == nil)
            #expect(list.expiresAt == Date(timeIntervalSince1970: 1_800_000_000))
            #expect(store.listBytes.value == 1 + rows.count)
            let queue = try await store.queue.all()
            #expect(queue.map(\.mutation.id) == [queued.id])
            #expect(try await store.replayLog.writes(table: "tasks").map(\.mutation.id) == [replayed.id])
            let refused = try await store.rejected.all()
            #expect(refused.map(\.mutation.id) == [rejected.id] && refused.first?.details.code == "42501")
            #expect(try await store.accepted.accepted(replayed.id)?.rows == [["id": 1]])
            #expect(try await store.marks.mark(table: "tasks") == 41)
            #expect(try await store.account.owner() == "user-1")
            // The new column takes a count.
            var counted = list
            counted.countBeyond = 12
            try await store.lists.save(counted)
            #expect(try await store.lists.list(key: "k")?.countBeyond == 12)
            await store.close()

            let check = try SQLiteConnection(path: path)
            #expect(try StoreSchema.version(of: check) == StoreSchema.currentVersion)
        }
    }
}
