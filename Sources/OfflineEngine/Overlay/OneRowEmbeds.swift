/// The embeds of one row a list reads (`user:user_id(*)`, `author:profiles!author_id(name)`),
/// and what the table's cached rows show for them, so a written row joining the list shows the
/// embed its foreign key names. Pure: no I/O, no `await`. Laid only on rows of a table the app
/// gave ``TableSettings``: elsewhere the reference's limit holds (a queued row carries only the
/// columns it wrote).
///
/// An embed is followed by a column of the list's table: its `!hint`, the embed's own name when
/// it embeds by a column (`user_id(*)`), or the column the app declared for the embedded table
/// (``TableSettings/foreignKeys``). A row written without the embed that carries that column
/// takes the embed from a cached row of the table (the list's own or another cached list's) with
/// the same value in that column, read with the same embed (its alias aside), as that row holds
/// it: an object, or `null`. The newest fetched list wins. Only such values are taken, so an
/// embed of many rows (an array) is never laid, and a row with no such cached row shows without
/// the embed, as the reference says.
struct OneRowEmbeds: Sendable {
    /// One embed of the list's `select`.
    struct Item: Sendable, Hashable {
        /// The key the embed is read under: its alias, else its name.
        var outputKey: String
        /// The embed without its alias (`profiles!author_id(name)`): two lists read the same
        /// embedded row when these are equal.
        var body: String
        /// The columns of the list's table the embed may follow, in order of preference.
        var columns: [String]
        /// The embed's name: a table, or a column of the list's table.
        var name: String
        /// Its `!hint`, if any.
        var hint: String?
    }

    /// The list's embeds.
    let items: [Item]
    /// Per item: the embedded value cached rows show, by `column=value`.
    private let found: [[String: JSONValue]]
    /// The embedded tables' own cached rows, for the relations the app declared.
    private let declared: DeclaredEmbeds?

    /// The embeds `list` reads, with the values the rows of `sources` (cached lists of any table:
    /// only the list's own table is used, the list itself among them) show for them.
    /// `foreignKeys` names the column followed for an embedded table, as the app declared; for
    /// those tables, `related` holds their cached lists by table name and `keyColumns` their keys.
    init(
        list: QueryDescription, sources: [CachedList], foreignKeys: [String: String] = [:],
        related: [String: [CachedList]] = [:], keyColumns: (String) -> [String] = { _ in ["id"] }
    ) {
        let items = OneRowEmbeds.items(of: list.select, foreignKeys: foreignKeys)
        self.items = items
        guard !items.isEmpty else {
            found = []
            declared = nil
            return
        }
        declared =
            foreignKeys.isEmpty
            ? nil
            : DeclaredEmbeds(items: items, foreignKeys: foreignKeys, related: related, keyColumns: keyColumns)
        var found = [[String: JSONValue]](repeating: [:], count: items.count)
        let sameTable = sources.filter { $0.query.reads(schema: list.schema, table: list.table) }
        for source in sameTable.sorted(by: { $0.fetchTick < $1.fetchTick }) {
            let sourceItems = OneRowEmbeds.items(of: source.query.select, foreignKeys: foreignKeys)
            for (position, item) in items.enumerated() {
                guard let read = sourceItems.first(where: { $0.body == item.body }) else { continue }
                for row in source.rows {
                    guard let value = row[read.outputKey], value.isOneRow else { continue }
                    for column in item.columns {
                        if let lookup = OneRowEmbeds.lookup(column, in: row) {
                            found[position][lookup] = value
                        }
                    }
                }
            }
        }
        self.found = found
    }

    /// Whether `select` reads an embed (anything in parentheses): only then can a list have
    /// embeds of one row to lay.
    static func mayEmbed(_ select: String) -> Bool { select.contains("(") }

    /// `row` with each embed it lacks taken from a cached row with the same foreign key value.
    func filling(_ row: Row) -> Row {
        var row = row
        for (position, item) in items.enumerated() where row[item.outputKey] == nil {
            for column in item.columns {
                if let lookup = OneRowEmbeds.lookup(column, in: row), let value = found[position][lookup] {
                    row[item.outputKey] = value
                    break
                }
            }
            if row[item.outputKey] == nil, let value = declared?.value(at: position, for: row) {
                row[item.outputKey] = value
            }
        }
        return row
    }

    /// The lookup text of `row`'s value in `column`, or `nil` when the row lacks the column.
    private static func lookup(_ column: String, in row: Row) -> String? {
        guard let value = row[column] else { return nil }
        if value == .null { return column + " is null" }
        return RowKey.normalised(value).map { column + "=" + $0 }
    }

    /// The embeds of `select`'s top level (spreads left out).
    static func items(of select: String, foreignKeys: [String: String]) -> [Item] {
        guard mayEmbed(select) else { return [] }
        return QueryDescription.topLevelItems(of: select).compactMap {
            item(from: $0, foreignKeys: foreignKeys)
        }
    }

    /// One embed from its `select` item: `[alias:]name[!hint][!inner|!left](columns)`.
    private static func item(from text: String, foreignKeys: [String: String]) -> Item? {
        guard text.hasSuffix(")"), !text.hasPrefix("..."), let open = text.firstIndex(of: "(") else {
            return nil
        }
        let head = text[..<open]
        if let colon = head.firstIndex(of: ":"), !head.contains("::") {
            return make(
                outputKey: String(head[..<colon]), head: String(head[head.index(after: colon)...]),
                body: String(text[text.index(after: colon)...]), foreignKeys: foreignKeys)
        }
        return make(outputKey: nil, head: String(head), body: text, foreignKeys: foreignKeys)
    }

    private static func make(outputKey: String?, head: String, body: String, foreignKeys: [String: String])
        -> Item?
    {
        let parts = head.split(separator: "!").map(String.init)
        guard let name = parts.first, !name.isEmpty else { return nil }
        let hint = parts.dropFirst().first { $0 != "inner" && $0 != "left" }
        var columns = [hint, name, foreignKeys[name]].compactMap { $0 }
        columns = columns.enumerated().filter { columns.firstIndex(of: $0.element) == $0.offset }.map(
            \.element)
        return Item(outputKey: outputKey ?? name, body: body, columns: columns, name: name, hint: hint)
    }
}

extension JSONValue {
    /// Whether the value is what an embed of one row reads: an object, or `null` for none.
    fileprivate var isOneRow: Bool {
        switch self {
        case .object, .null: return true
        default: return false
        }
    }
}
