import Foundation
import Testing

@testable import OfflineEngine

@Suite("Store files", .timeLimit(.minutes(10)))
struct StoreFilePermissionTests {
    private static func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test("the folder is 0700 and the database and its -wal file are 0600; no shared-memory file")
    func ownerOnly() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { base in
            let folder = base.appendingPathComponent("nested")
            let store = try Store.open(.directory(folder))
            try await store.queue.enqueue(sampleWrite())
            #expect(try Self.permissions(folder) == 0o700)
            for suffix in ["", "-wal"] {
                let file = folder.appendingPathComponent(Storage.fileName + suffix)
                #expect(FileManager.default.fileExists(atPath: file.path), "\(suffix) exists")
                #expect(try Self.permissions(file) == 0o600, "\(suffix) is owner-only")
            }
            #expect(
                !FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(Storage.fileName + "-shm").path))
            await store.close()
        }
    }

    @Test("an existing, too-open store file is tightened to 0600; the journal is WAL")
    func tightensAndUsesWAL() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            var store = try Store.open(.directory(folder))
            await store.close()
            let file = folder.appendingPathComponent(Storage.fileName)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            store = try Store.open(.directory(folder))
            #expect(try Self.permissions(file) == 0o600)
            await store.close()
            let raw = try SQLiteConnection(path: file.path)
            #expect(try raw.query("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
        }
    }

    @Test("an existing folder readable by others is narrowed to its owner (0700) at open")
    func narrowsExistingFolder() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            #expect(try Self.permissions(folder) == 0o755)
            let store = try Store.open(.directory(folder))
            #expect(try Self.permissions(folder) == 0o700)
            await store.close()
        }
    }

    @Test("a folder is used by one open store at a time; a second open is told it is in use")
    func oneStoreAtATime() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try Store.open(.directory(folder))
            try await first.queue.enqueue(sampleWrite())
            #expect(throws: StoreError.inUse) { try Store.open(.directory(folder)) }
            await first.close()
            let second = try Store.open(.directory(folder))
            #expect(try await second.queue.count() == 1)
            await second.close()
        }
    }
}
