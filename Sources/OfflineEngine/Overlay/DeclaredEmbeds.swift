/// Embeds of one row taken from the embedded table's own cached rows, for the relations the app
/// declares (``TableSettings/foreignKeys``): a written row whose column names a row of that table
/// by its key shows the embed as that row, cached in any list of its table, holds the columns the
/// embed reads. Pure: no I/O, no `await`.
///
/// The embed's columns must be plain (`profiles(name, avatar)`) or `*`; a `*` embed is taken only
/// from a list read with `*`, so it carries every column. A row whose column is `null` shows the
/// embed as `null`, as PostgREST answers a many-to-one embed without a row. The embedded table's
/// key must be one column. Rows are as cached when the written row was laid: a later change of the
/// embedded table shows once the list is laid again.
struct DeclaredEmbeds: Sendable {
    /// A declared relation of one embed: the column followed, and the embedded rows by key.
    private struct Relation: Sendable {
        var column: String
        var rows: [String: JSONValue]
    }

    /// Per embed of the list (in the order of `OneRowEmbeds.items`), its relation if declared.
    private let relations: [Relation?]

    /// The relations of `items` that `foreignKeys` declares, with the embedded rows `related`
    /// holds (cached lists by table name), each table keyed by `keyColumns`.
    init(
        items: [OneRowEmbeds.Item], foreignKeys: [String: String], related: [String: [CachedList]],
        keyColumns: (String) -> [String]
    ) {
        relations = items.map { item in
            guard let (table, column) = Self.declared(item, in: foreignKeys),
                case let key = keyColumns(table), key.count == 1, let keyColumn = key.first,
                let columns = Self.columns(of: item.body)
            else { return nil }
            var rows = [String: JSONValue]()
            for list in (related[table] ?? []).sorted(by: { $0.fetchTick < $1.fetchTick }) {
                let read = ReadShape(list.query)
                guard read.embedParameters.isEmpty else { continue }
                switch (columns, read.columns) {
                case (.all, .all):
                    for row in list.rows {
                        if let text = row[keyColumn].flatMap(RowKey.normalised) { rows[text] = row.json }
                    }
                case (.named(let names), .all), (.named(let names), .named):
                    for row in list.rows where names.isSubset(of: row.columns) {
                        guard let text = row[keyColumn].flatMap(RowKey.normalised) else { continue }
                        rows[text] = .object(row.values.filter { names.contains($0.key) })
                    }
                default:
                    continue
                }
            }
            return Relation(column: column, rows: rows)
        }
    }

    /// The embed at `position` for a written row, or `nil` when no cached row of the embedded
    /// table answers it.
    func value(at position: Int, for row: Row) -> JSONValue? {
        guard position < relations.count, let relation = relations[position],
            let value = row[relation.column]
        else { return nil }
        if value == .null { return .null }
        return RowKey.normalised(value).flatMap { relation.rows[$0] }
    }

    /// The embedded table and the column of the list's table naming its row, as declared: the
    /// embed names the table (`profiles(name)`), or names by its hint or its name the column the
    /// app declared for a table (`user:user_id(*)`, `author:profiles!author_id(name)`).
    private static func declared(_ item: OneRowEmbeds.Item, in foreignKeys: [String: String]) -> (
        table: String, column: String
    )? {
        if let column = foreignKeys[item.name] { return (item.name, column) }
        let named = foreignKeys.sorted { $0.key < $1.key }.first {
            $0.value == item.hint || $0.value == item.name
        }
        return named.map { ($0.key, $0.value) }
    }

    /// What the embed reads: every column or plain ones (`nil`: nested embeds, aliases, casts).
    private static func columns(of body: String) -> ReadShape.Columns? {
        guard let open = body.firstIndex(of: "("), body.hasSuffix(")") else { return nil }
        let inner = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
        switch ReadShape.columns(of: QueryDescription.normalizedSelect(inner)) {
        case .complex: return nil
        case let columns: return columns
        }
    }
}
