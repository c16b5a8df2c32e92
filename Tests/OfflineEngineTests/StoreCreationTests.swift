import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store creation", .timeLimit(.minutes(10)))
struct StoreCreationTests {
    private static func databaseFile(in folder: URL) -> URL {
        folder.appendingPathComponent(Storage.fileName)
    }

    private static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("a brand-new folder opens, and its store file is a whole database from the start")
    func newFolderOpens() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { base in
            let folder = base.appendingPathComponent("nested/store")
            var store = try Store.open(.directory(folder))
            let header = try Data(contentsOf: Self.databaseFile(in: folder)).prefix(16)
            #expect(header == Data("SQLite format 3\0".utf8))
            #expect(
                try Self.names(in: folder).allSatisfy {
                    $0.hasPrefix(Storage.fileName + "-") || $0 == Storage.fileName
                })
            try await store.queue.enqueue(sampleWrite())
            await store.close()
            store = try Store.open(.directory(folder))
            #expect(try await store.queue.count() == 1)
            await store.close()
        }
    }

    @Test("a creation cut short by a crash leaves no false corruption: its leftovers are removed at open")
    func interruptedCreation() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // What a crash leaves behind: a new file before SQLite's first commit, and one half made.
            let empty = folder.appendingPathComponent(StoreFiles.creationPrefix + UUID().uuidString)
            try Data().write(to: empty)
            let half = folder.appendingPathComponent(StoreFiles.creationPrefix + UUID().uuidString)
            try Data("SQLite format 3\0".utf8).write(to: half)
            try Data(repeating: 7, count: 4_096).write(to: URL(fileURLWithPath: half.path + "-journal"))

            let store = try Store.open(.directory(folder))
            #expect(try Self.names(in: folder).allSatisfy { !$0.hasPrefix(StoreFiles.creationPrefix) })
            try await store.queue.enqueue(sampleWrite())
            #expect(try await store.queue.count() == 1)
            await store.close()
        }
    }

    @Test("a log left without its database (a reset cut short) is not replayed into a new store")
    func orphanedLogIsDropped() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { source in
            try await withStoreFolder(temporaryStoreFolder()) { folder in
                let original = try Store.open(.directory(source))
                for _ in 0..<20 { try await original.queue.enqueue(sampleWrite()) }
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let log = Storage.fileName + "-wal"
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(log), to: folder.appendingPathComponent(log))
                await original.close()

                let store = try Store.open(.directory(folder))
                #expect(try await store.queue.all().isEmpty)
                try await store.queue.enqueue(sampleWrite())
                await store.close()
                let reopened = try Store.open(.directory(folder))
                #expect(try await reopened.queue.count() == 1)
                await reopened.close()
            }
        }
    }
}

@Suite("Store creation: incremental vacuum", .timeLimit(.minutes(10)))
struct StoreIncrementalVacuumTests {
    @Test("a new store's file gives freed pages back without a rebuild (auto_vacuum is incremental)")
    func newStoreHasIncrementalVacuum() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let store = try Store.open(.directory(folder))
            await store.close()
            let check = try SQLiteConnection(path: folder.appendingPathComponent(Storage.fileName).path)
            #expect(try check.query("PRAGMA auto_vacuum") { $0.integer(0) } == [2])
            let memory = try Store.open(.inMemory)
            let mode = try await memory.perform(writes: false) { connection throws(StoreError) in
                try connection.query("PRAGMA auto_vacuum") { $0.integer(0) }
            }
            #expect(mode == [2])
            await memory.close()
        }
    }
}
