/// Row keys for one table, read fast: the same answer as `PrimaryKeys.key(of:in:)`, skipping the
/// UUID parse for text with no capital letter (lower-casing could not change it).
struct OverlayKeys: Sendable {
    /// The table's primary-key columns.
    let columns: [String]

    /// The keys of a table.
    init(table: String, primaryKeys: PrimaryKeys) {
        columns = primaryKeys.columns(for: table)
    }

    /// The key of `row`, or `nil` when a key column is missing or null.
    func key(of row: Row) -> RowKey? {
        values(of: row, columns: columns).map(RowKey.init(values:))
    }

    /// The key of `row` as one string (the values joined by NUL, which Postgres text never
    /// holds), or `nil` when a key column is missing or null: a cheap dictionary key.
    func indexKey(of row: Row) -> String? {
        if columns.count == 1, let column = columns.first {
            return row[column].flatMap(RowKey.normalised)
        }
        return values(of: row, columns: columns).map(OverlayKeys.indexKey(values:))
    }

    /// Key values as one string, in the form `indexKey(of:)` gives.
    static func indexKey(values: [String]) -> String {
        values.count == 1 ? values[0] : values.joined(separator: "\u{0}")
    }

    /// The normalised values of `columns` in `row`, or `nil` when one is missing or null.
    func values(of row: Row, columns: [String]) -> [String]? {
        var values = [String]()
        values.reserveCapacity(columns.count)
        for column in columns {
            guard let value = row[column], let text = RowKey.normalised(value) else { return nil }
            values.append(text)
        }
        return values
    }

    /// How an UPDATE's or DELETE's filters pin a single-column key: the index keys, and whether
    /// the filters say nothing else (then a row found by one of the keys provably matches when
    /// its key is text, as exactly equal text is equal under every column type).
    struct Pin: Sendable, Hashable {
        /// The index keys (see `indexKey(of:)`).
        var keys: [String]
        /// Whether every filter is an `eq` or `in` on the key column.
        var onlyKeys: Bool
    }

    /// How `filters` pin the key, or `nil` when they do not.
    func pin(by filters: [Filter]) -> Pin? {
        guard let pinned = pinnedIndexKeys(by: filters), let keyColumn = columns.first else { return nil }
        let onlyKeys = filters.allSatisfy { filter in
            guard case .condition(let condition) = filter else { return false }
            return condition.column == keyColumn && !condition.negated
                && (condition.op == .eq || condition.op == .in)
        }
        return Pin(keys: pinned, onlyKeys: onlyKeys)
    }

    /// The keys a filter list pins a single-column key to (`eq(id, x)`, `in(id, [...])` at the
    /// top level, intersected), or `nil` when the filters do not pin the key.
    func pinnedKeys(by filters: [Filter]) -> [RowKey]? {
        pinnedIndexKeys(by: filters).map { $0.map { RowKey(values: [$0]) } }
    }

    /// The index keys (see `indexKey(of:)`) a filter list pins a single-column key to, or `nil`.
    func pinnedIndexKeys(by filters: [Filter]) -> [String]? {
        guard columns.count == 1, let keyColumn = columns.first else { return nil }
        var pinned: [String]?
        for case .condition(let condition) in filters
        where condition.column == keyColumn && !condition.negated {
            var values: [String]
            switch (condition.op, condition.operand) {
            case (.eq, .value(let text)):
                values = [RowKey.normalised(text: text)]
            case (.in, .list(let texts)):
                values = texts.map(RowKey.normalised(text:))
            default:
                continue
            }
            if let earlier = pinned {
                let allowed = Set(earlier)
                values = values.filter(allowed.contains)
            }
            pinned = values
        }
        guard let pinned else { return nil }
        var seen = Set<String>()
        return pinned.filter { seen.insert($0).inserted }
    }
}
