extension Store {
    /// Wipes one user's data in one transaction: the lists of their cache, their queued writes,
    /// their replay log, rejected writes and accepted ids, the stored session when it is theirs,
    /// and the cache's owner when it is them. Other users' data and the change ticks stay. Returns
    /// the clear's tick, as ``clearAll()`` does.
    ///
    /// Afterwards none of the user's values is readable in the store's files, as after
    /// ``clearAll()``: secure delete zeroes the deleted content where it lay, beside other users'
    /// rows, and the write-ahead log is emptied into the database file and truncated.
    @discardableResult
    nonisolated(nonsending) package func clear(user: String) async throws(StoreError) -> Int64 {
        let tick = ticks.next()
        return try await perform(writes: true, atomic: true, checkpoint: true) {
            [queueIndex, listBytes] connection throws(StoreError) in
            queueIndex.invalidate()
            let owner = SQLiteValue.text(user)
            try connection.run("DELETE FROM lists WHERE user = ?", owner)
            try connection.run("DELETE FROM list_usage WHERE user = ?", owner)
            for table in ["queue", "replay_log", "rejected", "accepted"] {
                try connection.run("DELETE FROM \(table) WHERE owner = ?", owner)
            }
            try connection.run(
                """
                DELETE FROM meta WHERE key = 'session' AND json_valid(CAST(value AS TEXT))
                    AND json_extract(CAST(value AS TEXT), '$.userID') = ?
                """, owner)
            try connection.run("DELETE FROM meta WHERE key = 'owner' AND CAST(value AS TEXT) = ?", owner)
            listBytes.set(try ListTable.totalBytes(connection))
            try Store.storeTick(tick, connection)
            return tick
        }
    }
}
