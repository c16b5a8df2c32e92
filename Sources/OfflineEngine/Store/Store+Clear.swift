extension Store {
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
        let tick = ticks.next()
        return try await perform(writes: true, atomic: true, checkpoint: true) {
            [queueIndex, listBytes] connection throws(StoreError) in
            queueIndex.removeAll()
            listBytes.set(0)
            try connection.execute(
                script: """
                    DELETE FROM lists; DELETE FROM list_usage; DELETE FROM queue; DELETE FROM replay_log;
                    DELETE FROM rejected;
                    DELETE FROM accepted;
                    DELETE FROM meta WHERE key IN ('owner', 'session');
                    """)
            try Store.storeTick(tick, connection)
            return tick
        }
    }
}
