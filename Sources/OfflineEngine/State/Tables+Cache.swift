import Foundation

extension Tables {
    /// Forgets the lists an eviction removed from the store, sending each touched table's facts
    /// once. A list saved again since (another fetch tick) stays, and so does one read now (in
    /// `keeping`: a read began between the removal and this call), which is returned to be
    /// saved again so the store holds what is shown.
    mutating func forget(_ evicted: [EvictedList], keeping: Set<String>, owner: String?) -> [StoredList] {
        var touched: Set<TableID> = []
        var saveAgain: [StoredList] = []
        for removed in evicted {
            let table = TableID(schema: removed.schema, table: removed.table)
            guard let entry = byID[table]?.lists[removed.key], entry.list.fetchTick == Int(removed.mark)
            else {
                continue
            }
            if keeping.contains(removed.key) {
                saveAgain.append(entry.stored(key: removed.key))
                continue
            }
            byID[table]?.lists[removed.key] = nil
            touched.insert(table)
        }
        for table in touched { changed(table, owner: owner) }
        return saveAgain
    }

    /// Ends the time to live of the list of `key` if answer `serial` still wrote it: the list is
    /// stale and no longer counts as the server's answer. Returns whether it did.
    mutating func expire(_ key: String, of table: TableID, answer serial: Int, owner: String?) -> Bool {
        guard byID[table]?.lists[key]?.answer?.serial == serial else { return false }
        byID[table]?.lists[key]?.answer = nil
        byID[table]?.lists[key]?.isStale = true
        changed(table, owner: owner)
        return true
    }
}
