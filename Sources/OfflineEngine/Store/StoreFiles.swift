import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's files on disk: a folder readable by the owner only, a database file (and its
/// `-wal`/`-shm` companions) readable and writable by the owner only, and a cheap header check that
/// tells a damaged or truncated file from a good one before SQLite reads it.
///
/// A database file is never left empty as the sign of a new store: a new one is made whole under a
/// temporary name and linked into place (see `StoreFiles+Creation.swift`). So an empty database
/// file is always damage, and a crash while creating leaves only a leftover, removed at next open.
enum StoreFiles {
    /// The name prefix of a database being created (see `create(at:in:)`).
    static let creationPrefix = Storage.fileName + ".new-"

    /// Creates the folder (0700) when missing, or narrows an existing one to its owner; creates the
    /// database file (0600) when missing, or checks and tightens an existing one. Returns the
    /// database path.
    static func prepare(folder: URL) throws(StoreError) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .unreadable }
            try narrow(folder: folder.path)
        } else {
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .unreadable
            }
        }
        let path = folder.appendingPathComponent(Storage.fileName, isDirectory: false).path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw .unreadable }
            try checkHeader(path: path)
        } else {
            try create(at: path, in: folder)
        }
        try restrict(path)
        return path
    }

    /// Takes the group's and others' permissions off a folder the user owns. A folder of another
    /// user, or one shared on purpose (sticky, like `/tmp`), is left as it is: the files in it are
    /// the owner's only anyway.
    private static func narrow(folder path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable }
        let shared = info.st_mode & mode_t(0o077) != 0
        let sticky = info.st_mode & mode_t(0o1000) != 0
        guard shared, !sticky, info.st_uid == geteuid() else { return }
        guard chmod(path, info.st_mode & mode_t(0o700)) == 0 else { throw .unreadable }
    }

    /// Makes a file readable and writable by its owner only, if it exists.
    static func restrict(_ path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard chmod(path, 0o600) == 0 else { throw .unreadable }
    }

    /// Deletes the database and its companion files; a missing file is not an error.
    static func remove(_ files: [URL]) throws(StoreError) {
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw .unreadable
            }
        }
    }

    /// Refuses a file that is not an SQLite database or is shorter than its header says (cut off),
    /// unless a write-ahead log may still hold the missing pages. An empty file is refused too,
    /// whatever lies beside it: the store never leaves one (a new database is linked into place
    /// whole), and SQLite would open it as a new database and delete its log.
    static func checkHeader(path: String) throws(StoreError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable }
        defer { try? handle.close() }
        let header: Data
        let size: UInt64
        do {
            header = try handle.read(upToCount: 100) ?? Data()
            size = try handle.seekToEnd()
        } catch {
            throw .unreadable
        }
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw .corrupt
        }
        let bytes = [UInt8](header)
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { throw .corrupt }
        let pageCount = bytes[28..<32].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let walPath = path + "-wal"
        let walAttributes = try? FileManager.default.attributesOfItem(atPath: walPath)
        let walSize = (walAttributes?[.size] as? NSNumber)?.uint64Value ?? 0
        if walSize == 0, pageCount > 0, pageCount * UInt64(pageSize) > size {
            throw .corrupt
        }
    }
}
