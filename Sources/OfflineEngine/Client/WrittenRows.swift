/// The rows a queued write holds as the device shows them: what the `value` of its `execute()`
/// decodes when it could not be sent. Pure: from the table's facts alone.
///
/// An insert's or upsert's rows are the rows it was given. An update's are the rows the device
/// holds that its filters provably match, with the patch laid over them; a delete's are those
/// rows as they were. "The rows the device holds" are those of every cached list of the table,
/// with the user's earlier queued writes laid over them, once per primary key; a row whose match
/// cannot be told on the device is left out, as PostgreSQL would leave out a row it did not match.
enum WrittenRows {
    static func rows(of write: Mutation, facts: TableFacts, primaryKeys: PrimaryKeys) -> [Row] {
        let rows: [Row]
        switch write.operation {
        case .insert, .upsert:
            rows = write.rows
        case .update, .delete:
            let evaluator = FilterEvaluator(keyColumns: Set(primaryKeys.columns(for: write.table)))
            let held = heldRows(before: write, facts: facts, primaryKeys: primaryKeys)
            let matched = held.filter { evaluator.evaluate(write.filters, on: $0) == .true }
            if write.operation == .update, let patch = write.rows.first {
                rows = matched.map { $0.merging(patch) }
            } else {
                rows = matched
            }
        }
        return embedding(rows, askedBy: write, facts: facts, primaryKeys: primaryKeys)
    }

    /// The rows with the embeds of one row their `select` asks for (`insert(message)
    /// .select("*, author:profiles!user_id(name)")`), as a cached row of the table with the same
    /// foreign key value holds them: the lists lay the same (``OneRowEmbeds``), so the value of
    /// `execute()` and the row in every list agree. With no such row, the embed is left out; a
    /// table without settings keeps the reference's limit (no embeds), as its lists do.
    private static func embedding(
        _ rows: [Row], askedBy write: Mutation, facts: TableFacts, primaryKeys: PrimaryKeys
    ) -> [Row] {
        guard let select = write.returning, OneRowEmbeds.mayEmbed(select), !rows.isEmpty,
            let foreignKeys = primaryKeys.foreignKeys[write.table]
        else { return rows }
        let embeds = OneRowEmbeds(
            list: QueryDescription(schema: write.schema, table: write.table, select: select),
            sources: facts.lists.values.map(\.list), foreignKeys: foreignKeys,
            keyColumns: primaryKeys.columns(for:))
        return embeds.items.isEmpty ? rows : rows.map(embeds.filling)
    }

    /// The rows of the table's cached lists with the writes queued before `write` laid over
    /// them, once per key (the columns of every list that holds a row, merged), in the order
    /// first seen.
    private static func heldRows(before write: Mutation, facts: TableFacts, primaryKeys: PrimaryKeys) -> [Row]
    {
        let queued = facts.queued.writes
        let earlier = Array(queued.prefix(while: { $0.id != write.id }))
        let lists = facts.lists.sorted(by: { $0.key < $1.key }).map(\.value.list)
        let overlay = Overlay.engine(primaryKeys: primaryKeys)
        var order: [RowKey] = []
        var byKey: [RowKey: Row] = [:]
        for (index, list) in lists.enumerated() {
            var others = lists
            others.remove(at: index)
            let shown = overlay.read(
                list, otherLists: others, queue: earlier, replayLog: facts.replayed, ownerID: facts.owner)
            for row in shown.rows {
                guard let key = primaryKeys.key(of: row, in: write.table) else { continue }
                if let known = byKey[key] {
                    byKey[key] = known.merging(row)
                } else {
                    order.append(key)
                    byKey[key] = row
                }
            }
        }
        return order.compactMap { byKey[$0] }
    }
}
