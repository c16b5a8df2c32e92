import Foundation

extension EngineState {
    /// Whether an insert or upsert sent at once should ask PostgREST for its rows: a cached list
    /// or live read of its table reads a column one of its sent rows lacks (every column, for
    /// `*`), so only the server's rows (its ids, defaults, triggers' work) can be laid into it.
    func needsServerRows(_ write: Mutation) async -> Bool {
        guard write.operation == .insert || write.operation == .upsert, write.returning == nil else {
            return false
        }
        let table = TableID(write)
        try? await loadLists(of: table)
        let cached = tables.byID[table]?.lists.values.map(\.list.query) ?? []
        let sentColumns = write.sentRows.map(\.columns)
        for query in cached + liveReads.queries(of: table) {
            switch ReadShape(query).columns {
            case .all, .complex:
                return true
            case .named(let read):
                if sentColumns.contains(where: { !read.isSubset(of: $0) }) { return true }
            }
        }
        return false
    }
}
