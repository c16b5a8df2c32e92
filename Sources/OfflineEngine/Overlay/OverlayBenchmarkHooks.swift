/// Entry points for the benchmarks executable (package access), which cannot see the engine's
/// internal overlay types: they measure the overlay exactly as the engine runs it.
package enum OverlayBenchmarkHooks {
    /// The rows a list read by `query` shows when `writes` (all queued, oldest first) are laid
    /// over its cached `rows`, answered with the engine's filter evaluator.
    package static func overlay(
        _ rows: [Row], query: QueryDescription, writes: [Mutation], primaryKeys: PrimaryKeys
    ) -> [Row] {
        Overlay<FilterEvaluator>(primaryKeys: primaryKeys).apply(
            writes.map { OverlayWrite($0, isQueued: true) }, to: CachedList(query: query, rows: rows)
        ).rows.array
    }

    /// The baseline: copies `rows` and indexes them by key, the least any overlay must do;
    /// returns the number of keys.
    package static func indexRows(_ rows: [Row], table: String, primaryKeys: PrimaryKeys) -> Int {
        let keys = OverlayKeys(table: table, primaryKeys: primaryKeys)
        let copy: [Row?] = rows.map(Optional.some)
        var index = [String: Int](minimumCapacity: copy.count)
        for (slot, row) in rows.enumerated() {
            if let key = keys.indexKey(of: row) { index[key] = slot }
        }
        return index.count + (copy.isEmpty ? 0 : 1) - 1
    }
}
