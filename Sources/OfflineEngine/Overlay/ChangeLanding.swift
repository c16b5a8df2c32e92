/// What a change from the server's feed does to one cached list: the rules an accepted write
/// follows, with what a feed adds (the whole row, and the key of a deleted one) and with
/// "cannot tell" always meaning "fetch again", since the row is not the user's own.
///
/// - An inserted or updated row that the list's filters admit replaces the row with its key, or
///   joins the list when it is not there; one they refuse leaves it. A row joins only when it
///   carries every column the list reads (the join rule), and only a list with no order and no
///   page, since the server decides where it goes.
/// - An update that may move a row the list holds in its order (a column it sorts by changed, or
///   its old or new value is not known) fetches the list again.
/// - A deleted row leaves by key.
/// - A list with a page (a limit or an offset) is fetched again whenever a row may enter or
///   leave it or a page before it.
/// - A filter the evaluator cannot decide, a row without its key, a record cut short or a
///   change with errors: the list is fetched again.
struct ChangeLanding {
    let change: RowChange
    let keys: OverlayKeys
    let evaluator: FilterEvaluator

    init(_ change: RowChange, primaryKeys: PrimaryKeys) {
        self.change = change
        keys = OverlayKeys(table: change.table, primaryKeys: primaryKeys)
        evaluator = FilterEvaluator(keyColumns: Set(keys.columns))
    }

    /// The change's table.
    var table: TableID { TableID(schema: change.schema, table: change.table) }

    /// The change laid into one list (of any table: others come back `.unchanged`).
    func patch(_ list: CachedList) -> ListPatch {
        guard TableID(list.query) == table else { return .unchanged }
        guard change.errors.isEmpty else { return .stale }
        switch change.kind {
        case .delete:
            guard let key = keys.key(of: change.oldRecord) else {
                return list.rows.isEmpty ? .unchanged : .stale
            }
            let rows = list.rows.filter { keys.key(of: $0) != key }
            // A page moves when a row before it goes; the next row fills a page that lost one.
            if list.query.offset != nil || (rows.count < list.rows.count && list.query.limit != nil) {
                return .stale
            }
            return rows.count == list.rows.count ? .unchanged : .rows(rows)
        case .insert, .update:
            return place(in: list)
        }
    }

    /// An inserted or updated row laid into a list.
    private func place(in list: CachedList) -> ListPatch {
        guard let key = keys.key(of: change.record) else { return .stale }
        let query = list.query
        let admitted =
            query.filters.isEmpty ? Truth.true : evaluator.evaluate(query.filters, on: change.record)
        if admitted == .unknown { return .stale }
        // A new row the filters refuse is in no page of the list: nothing to look for.
        if admitted == .false, change.kind == .insert, query.offset == nil { return .unchanged }
        let oldKey = keys.key(of: change.oldRecord) ?? key
        let held =
            list.rows.firstIndex { keys.key(of: $0) == oldKey }
            ?? list.rows.firstIndex { keys.key(of: $0) == key }
        var rows = list.rows
        switch admitted {
        case .unknown:
            return .stale
        case .false:
            // The row may have been on an earlier page: this one moves.
            if query.offset != nil { return .stale }
            guard let held else { return .unchanged }
            // The next row fills the page.
            if query.limit != nil { return .stale }
            rows.remove(at: held)
        case .true:
            guard let shown = shown(in: query) else { return .stale }
            if let held {
                if mayMove(rows[held], in: query.order) { return .stale }
                if rows[held] == shown { return .unchanged }
                rows[held] = shown
            } else {
                if !query.order.isEmpty || query.limit != nil || query.offset != nil { return .stale }
                rows.append(shown)
            }
        }
        return .rows(rows)
    }

    /// Whether the change may move a row the list holds in its order: a column it sorts by
    /// changed, or either value is unknown (the list sorts by a column it does not read and the
    /// old record does not carry it, or by one the record lacks).
    private func mayMove(_ held: Row, in order: [OrderTerm]) -> Bool {
        order.contains { term in
            guard let after = change.record[term.column] else { return true }
            return (held[term.column] ?? change.oldRecord[term.column]) != after
        }
    }

    /// The record as the list reads it, or `nil` when it lacks a column the list reads (or the
    /// list renames or embeds, so a feed's row cannot be made into one of its rows).
    private func shown(in query: QueryDescription) -> Row? {
        let record = change.record
        switch ReadShape(query).columns {
        case .all:
            return Set(change.columns).isSubset(of: record.columns) ? record : nil
        case .named(let names):
            guard names.isSubset(of: record.columns) else { return nil }
            return Row(record.values.filter { names.contains($0.key) })
        case .complex:
            return nil
        }
    }
}
