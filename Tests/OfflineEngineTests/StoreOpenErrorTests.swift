import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store open errors", .timeLimit(.minutes(10)))
struct StoreOpenErrorTests {
    private static func databaseFile(in folder: URL) -> URL {
        folder.appendingPathComponent(Storage.fileName)
    }

    /// A folder holding a closed store with some data spread over many pages.
    private static func populatedStore() async throws -> URL {
        let folder = temporaryStoreFolder()
        let store = try Store.open(.directory(folder))
        let rows: [Row] = (0..<2_000).map { index in
            ["id": .number(JSONNumber(index)), "title": .string("row \(index)")]
        }
        try await store.lists.save(StoredList(key: "k", table: "tasks", rows: rows, fetchedAt: Date()))
        for _ in 0..<50 { try await store.queue.enqueue(sampleWrite()) }
        await store.close()
        return folder
    }

    private static func expectOpen(_ folder: URL, throws expected: StoreError) {
        #expect(throws: expected) { try Store.open(.directory(folder)) }
        let description = expected.description
        #expect(!description.contains(folder.path) && !description.contains(Storage.fileName))
    }

    @Test("a file that is not a store is reported corrupt, and reset starts over")
    func garbage() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let noise = Data((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
            try noise.write(to: Self.databaseFile(in: folder))
            Self.expectOpen(folder, throws: .corrupt)

            try Store.reset(.directory(folder))
            let store = try Store.open(.directory(folder))
            #expect(try await store.queue.all().isEmpty)
            await store.close()
        }
    }

    @Test("a truncated file is reported corrupt", arguments: [50, 0.5])
    func truncated(keep: Double) async throws {
        let folder = try await Self.populatedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.databaseFile(in: folder)
        let data = try Data(contentsOf: file)
        #expect(data.count > 16_384)
        let length = keep < 1 ? Int(Double(data.count) * keep) : Int(keep)
        try data.prefix(length).write(to: file)
        Self.expectOpen(folder, throws: .corrupt)
    }

    @Test(
        "a store file emptied to 0 bytes is reported corrupt, with or without its log beside it, and reset starts over",
        arguments: [false, true])
    func emptied(withLog: Bool) async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            try await withStoreFolder(temporaryStoreFolder()) { snapshot in
                let store = try Store.open(.directory(folder))
                for _ in 0..<400 { try await store.queue.enqueue(sampleWrite()) }
                if withLog {
                    // The files as they are while the store is open: the latest writes are in the log.
                    try FileManager.default.createDirectory(at: snapshot, withIntermediateDirectories: true)
                    for suffix in ["", "-wal"] {
                        let name = Storage.fileName + suffix
                        try FileManager.default.copyItem(
                            at: folder.appendingPathComponent(name), to: snapshot.appendingPathComponent(name)
                        )
                    }
                }
                await store.close()
                let damaged = withLog ? snapshot : folder
                let handle = try FileHandle(forWritingTo: Self.databaseFile(in: damaged))
                try handle.truncate(atOffset: 0)
                try handle.close()
                let log = damaged.appendingPathComponent(Storage.fileName + "-wal")
                let logBefore = try? Data(contentsOf: log)
                #expect((logBefore?.isEmpty ?? true) == !withLog)

                Self.expectOpen(damaged, throws: .corrupt)
                #expect((try? Data(contentsOf: log)) == logBefore, "the log is left for the app to decide on")

                try Store.reset(.directory(damaged))
                let reopened = try Store.open(.directory(damaged))
                #expect(try await reopened.queue.all().isEmpty)
                await reopened.close()
            }
        }
    }

    @Test("damage inside a file is reported corrupt when read, without crashing")
    func damagedPages() async throws {
        let folder = try await Self.populatedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.databaseFile(in: folder)
        var data = try Data(contentsOf: file)
        data.replaceSubrange(4_096..<data.count, with: Data(repeating: 0xA5, count: data.count - 4_096))
        try data.write(to: file)
        do {
            let store = try Store.open(.directory(folder))
            await #expect(throws: StoreError.corrupt) {
                _ = try await store.lists.list(key: "k")
                _ = try await store.queue.all()
            }
            await store.close()
        } catch {
            #expect(error == .corrupt)
        }
    }

    @Test("a store written by a newer app version is refused with both versions named")
    func newerSchema() async throws {
        let folder = try await Self.populatedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = try SQLiteConnection(path: Self.databaseFile(in: folder).path)
        try raw.execute(script: "PRAGMA user_version = 99")
        _ = consume raw
        Self.expectOpen(folder, throws: .newerSchema(found: 99, supported: StoreSchema.currentVersion))
        #expect(StoreError.newerSchema(found: 99, supported: 2).description.contains("99"))
    }

    @Test("a folder that is a file, or a store file that is a folder, is reported unreadable")
    func unreadable() throws {
        let base = temporaryStoreFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let plainFile = base.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: plainFile)
        Self.expectOpen(plainFile, throws: .unreadable)

        let folder = base.appendingPathComponent("store")
        try FileManager.default.createDirectory(
            at: Self.databaseFile(in: folder), withIntermediateDirectories: true)
        Self.expectOpen(folder, throws: .unreadable)
    }

    @Test("error descriptions are plain sentences without paths or data")
    func descriptions() {
        let errors: [StoreError] = [
            .corrupt, .unreadable, .newerSchema(found: 3, supported: 2), .full, .closed, .inUse,
            .failed(code: 19, detail: "UNIQUE constraint failed: queue.id"),
        ]
        for error in errors {
            #expect(!error.description.contains("/"))
            #expect(!error.description.contains("queue.id"))
            #expect(error.localizedDescription == error.description)
        }
    }
}
