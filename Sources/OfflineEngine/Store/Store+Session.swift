import Foundation

extension Store {
    /// The user the cache belongs to, or `nil` when it belongs to nobody signed in.
    nonisolated(nonsending) package func owner() async throws(StoreError) -> String? {
        try await perform(writes: false) { connection throws(StoreError) in
            try Self.meta("owner", connection).flatMap { String(data: $0, encoding: .utf8) }
        }
    }

    /// Hands the cache to a user (or to nobody).
    nonisolated(nonsending) package func setOwner(_ owner: String?) async throws(StoreError) {
        try await setMeta("owner", owner.map { Data($0.utf8) })
    }

    /// The session stored at the last sign-in, or `nil` when signed out.
    nonisolated(nonsending) package func session() async throws(StoreError) -> AuthSession? {
        let data = try await perform(writes: false) { connection throws(StoreError) in
            try Self.meta("session", connection)
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(AuthSession.self, from: data)
        } catch {
            throw .corrupt
        }
    }

    /// Stores the session so the user stays signed in at the next launch (`nil` forgets it).
    nonisolated(nonsending) package func setSession(_ session: AuthSession?) async throws(StoreError) {
        var data: Data?
        if let session {
            do {
                data = try JSONEncoder().encode(session)
            } catch {
                throw .failed(code: 1, detail: "the session could not be encoded")
            }
        }
        try await setMeta("session", data)
    }

    /// Wipes cached lists, queued writes, the replay log, rejected writes, the session and the
    /// owner in one transaction. Change ticks and marks stay, so ticks keep growing. Returns the
    /// clear's tick: every tick handed out before the call is below it, every later one above.
    ///
    /// Afterwards no cleared value is readable in the store's files: secure delete (set at open)
    /// zeroes the deleted content, and once the transaction has committed the write-ahead log is
    /// emptied into the database file and truncated to 0 bytes, so no older copy of a page stays
    /// in it. Throws when the wipe could not be committed, or when the log could not be emptied (the
    /// data is then gone from the store, but may still be in the log; calling again finishes it).
    @discardableResult
    nonisolated(nonsending) package func clearAll() async throws(StoreError) -> Int64 {
        try await perform(writes: true, atomic: true, checkpoint: true) {
            [queueIndex] connection throws(StoreError) in
            queueIndex.removeAll()
            try connection.execute(
                script: """
                    DELETE FROM lists; DELETE FROM queue; DELETE FROM replay_log; DELETE FROM rejected;
                    DELETE FROM meta WHERE key IN ('owner', 'session');
                    """)
            return try Self.nextTick(connection)
        }
    }

    nonisolated(nonsending) private func setMeta(_ key: String, _ value: Data?) async throws(StoreError) {
        try await perform(writes: true) { connection throws(StoreError) in
            if let value {
                try connection.run(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", .text(key), .blob(value))
            } else {
                try connection.run("DELETE FROM meta WHERE key = ?", .text(key))
            }
        }
    }

    private static func meta(_ key: String, _ connection: SQLiteConnection) throws(StoreError) -> Data? {
        try connection.query("SELECT value FROM meta WHERE key = ?", .text(key)) { row in row.blob(0) }.first
    }
}
