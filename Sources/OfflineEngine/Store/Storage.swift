import Foundation

/// Where the engine keeps its cache, queued writes and session between launches.
public enum Storage: Sendable, Hashable {
    /// In a folder the app owns (for example Application Support); created readable by the
    /// owner only when missing. Writes made offline survive a crash of the app.
    case directory(URL)
    /// In memory only: nothing survives the process (previews and tests).
    case inMemory
}

extension Storage {
    /// Deletes the store's files, so the next client opened on this storage starts empty.
    ///
    /// Call it, with no client open on the storage, when ``OfflineClient/open()``
    /// threw a ``StoreError`` (a damaged, unreadable or newer store) and the user agreed to start
    /// over. Queued writes in the store are lost.
    public func reset() throws(StoreError) {
        try Store.reset(self)
    }

    /// The database file's name inside the folder.
    package static let fileName = "offline-engine.sqlite"

    /// The database file and its write-ahead log and shared-memory companions, or `nil` in memory.
    var files: [URL]? {
        guard case .directory(let folder) = self else { return nil }
        let database = folder.appendingPathComponent(Self.fileName, isDirectory: false)
        return [database]
            + ["-wal", "-shm", "-journal"].map { suffix in
                folder.appendingPathComponent(Self.fileName + suffix, isDirectory: false)
            }
    }
}
