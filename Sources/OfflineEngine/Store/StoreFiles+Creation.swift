import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension StoreFiles {
    /// Makes a new store's database at `path`, whole, so that no empty database file is ever seen.
    ///
    /// The database is made under a temporary name in the same folder (0600): WAL mode, the current
    /// schema, checkpointed so the file holds its pages, then closed. It is then linked into place,
    /// which fails rather than replace a store another open made meanwhile (that one is opened
    /// instead). A crash before the link leaves only the temporary file, which `removeLeftovers`
    /// deletes at the next open.
    static func create(at path: String, in folder: URL) throws(StoreError) {
        let temporary = folder.appendingPathComponent(
            creationPrefix + UUID().uuidString, isDirectory: false
        ).path
        defer { removeQuietly(temporary) }
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else { throw .unreadable }
        close(descriptor)
        try initialise(temporary)
        // Companions left without their database (a reset cut short) must not be read as this
        // new database's log or journal.
        for suffix in companionSuffixes { removeQuietly(path + suffix) }
        if link(temporary, path) != 0 {
            switch errno {
            case EEXIST, ENOENT:
                // EEXIST: another open created the store first. ENOENT: that open, holding the
                // store, removed this leftover. Either way the store is there to open.
                break
            case EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK:
                // A file system without hard links: move the file instead, unless a store
                // appeared meanwhile (then that one is opened).
                guard !FileManager.default.fileExists(atPath: path) else { break }
                guard rename(temporary, path) == 0 else { throw .unreadable }
            default:
                throw .unreadable
            }
        }
        syncFolder(folder.path)
    }

    /// Deletes what an interrupted `create(at:in:)` left in the folder. Called once the store is
    /// open and locked, so no other open of this folder is still creating.
    static func removeLeftovers(in folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(creationPrefix) {
            _ = unlink(folder.appendingPathComponent(name, isDirectory: false).path)
        }
    }

    private static let companionSuffixes = ["-wal", "-shm", "-journal"]

    private static func initialise(_ path: String) throws(StoreError) {
        let connection = try SQLiteConnection(path: path)
        // Before the file's header is written (the log's mode writes it): pages freed by evicted
        // lists can be given back to the file system without rebuilding the file (see
        // `ListTable.compact()`).
        try connection.execute(script: "PRAGMA auto_vacuum = INCREMENTAL")
        try connection.execute(script: "PRAGMA locking_mode = EXCLUSIVE")
        let mode = try connection.query("PRAGMA journal_mode = WAL") { row in row.text(0) }
        guard mode.first??.lowercased() == "wal" else {
            throw .failed(code: 1, detail: "the write-ahead log could not be enabled")
        }
        try StoreSchema.migrate(connection)
        let busy = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { row in row.integer(0) }
        guard busy.first == 0 else {
            throw .failed(code: SQLITE_BUSY, detail: "the new store could not be checkpointed")
        }
    }

    /// Deletes a file and its companions, ignoring ones that are missing.
    private static func removeQuietly(_ path: String) {
        for suffix in [""] + companionSuffixes { _ = unlink(path + suffix) }
    }

    /// Makes the folder's new entry durable (best effort: a folder may not support it).
    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
