/// What an accepted write does to one cached list or waiting read.
enum ListPatch: Sendable, Hashable {
    /// The write does not change the list.
    case unchanged
    /// The list's new rows.
    case rows([Row])
    /// The cache cannot work out the write's effect on the list: fetch it again.
    case stale
}

/// The effect of an accepted write on every cached list and every read with nothing cached.
struct OnlinePatchResult: Sendable, Hashable {
    /// One patch per cached list, in the order given.
    var lists: [ListPatch]
    /// One patch per read with nothing cached, in the order given.
    var uncachedReads: [ListPatch]
}

extension Overlay {
    /// Patches a write sent at once and accepted into the cache. (An `.onlineOnly` write is not
    /// patched in: the engine does not call this for it.)
    ///
    /// - Parameters:
    ///   - write: the accepted write.
    ///   - returned: the rows the server sent back, or `nil` when it sent none. An empty array
    ///     for a write that asked for its rows back (`returning` set) means the write touched no
    ///     row; an empty array otherwise counts as none.
    ///   - lists: every cached list (of any table: others come back `.unchanged`).
    ///   - uncachedReads: live reads with nothing cached yet, which get the written rows they
    ///     admit.
    func patch(
        _ write: Mutation, returned: [Row]?, into lists: [CachedList], uncachedReads: [QueryDescription] = []
    ) -> OnlinePatchResult {
        let patcher = OnlinePatcher<Evaluator>(write: write, returned: returned, primaryKeys: primaryKeys)
        return patcher.patch(lists, uncachedReads: uncachedReads)
    }
}

/// The work of one `Overlay.patch` call (the engine may also make one directly).
struct OnlinePatcher<Evaluator: RowFilterEvaluating> {
    /// A row to lay into lists, with the columns the server returned for it when it did.
    struct Laid {
        var row: Row
        var returnedColumns: Set<String>?
    }

    /// A row a cached list holds, in its most recently fetched version.
    struct Held {
        var row: Row
        var shape: ReadShape
    }

    let write: Mutation
    let keys: OverlayKeys
    let evaluator: Evaluator
    /// The rows the server returned, when they are the write's effect.
    let readRows: [Row]?
    let readShape: ReadShape

    /// A patcher for one accepted write; `returned` as in `Overlay.patch`.
    init(write: Mutation, returned: [Row]?, primaryKeys: PrimaryKeys) {
        self.write = write
        keys = OverlayKeys(table: write.table, primaryKeys: primaryKeys)
        evaluator = Evaluator(keyColumns: Set(keys.columns))
        if let returned, !(returned.isEmpty && write.returning == nil) {
            readRows = returned
        } else {
            readRows = nil
        }
        readShape = ReadShape(returning: write.returning ?? "*")
    }

    /// The write's effect on every cached list and every read with nothing cached.
    func patch(_ lists: [CachedList], uncachedReads: [QueryDescription]) -> OnlinePatchResult {
        if (write.schema ?? "public") != "public" { return allStale(lists, uncachedReads) }
        let write = self.write
        let sameTable = { (query: QueryDescription) in query.reads(schema: write.schema, table: write.table) }
        switch write.operation {
        case .insert, .upsert:
            let matchColumns = self.matchColumns
            let laid = laidRows(matchColumns: matchColumns)
            if write.operation == .upsert,
                laid.contains(where: { keys.values(of: $0.row, columns: matchColumns) == nil })
            {
                return allStale(lists, uncachedReads)
            }
            return OnlinePatchResult(
                lists: lists.map {
                    sameTable($0.query) ? place(laid, matchColumns: matchColumns, in: $0) : .unchanged
                },
                uncachedReads: uncachedReads.map { sameTable($0) ? admitted(laid, by: $0) : .unchanged })
        case .update:
            guard let update = updateEffect(lists.filter { sameTable($0.query) }) else {
                return allStale(lists, uncachedReads)
            }
            let held = heldRows(lists.filter { sameTable($0.query) })
            return OnlinePatchResult(
                lists: lists.map { sameTable($0.query) ? apply(update, held: held, to: $0) : .unchanged },
                uncachedReads: uncachedReads.map { _ in .unchanged })
        case .delete:
            var deletedKeys: Set<RowKey>?
            if let readRows {
                let found = readRows.compactMap(keys.key(of:))
                if found.count != readRows.count { return allStale(lists, uncachedReads) }
                deletedKeys = Set(found)
            }
            return OnlinePatchResult(
                lists: lists.map { sameTable($0.query) ? delete(deletedKeys, from: $0) : .unchanged },
                uncachedReads: uncachedReads.map { _ in .unchanged })
        }
    }

    /// Every list and read of the written table (in any schema) is stale.
    private func allStale(_ lists: [CachedList], _ uncachedReads: [QueryDescription]) -> OnlinePatchResult {
        OnlinePatchResult(
            lists: lists.map { $0.query.table == write.table ? .stale : .unchanged },
            uncachedReads: uncachedReads.map { $0.table == write.table ? .stale : .unchanged })
    }

    /// An upsert's conflict columns, or the table's key.
    private var matchColumns: [String] {
        if write.operation == .upsert, let onConflict = write.onConflict, !onConflict.isEmpty {
            return onConflict
        }
        return keys.columns
    }

    /// The rows to lay in: the rows returned, each merged over the sent row with the same match
    /// values (or, for a sent row without them, the sent row in the same position), else the
    /// rows sent.
    private func laidRows(matchColumns: [String]) -> [Laid] {
        let sent = write.appliedRows
        guard let readRows else { return sent.map { Laid(row: $0, returnedColumns: nil) } }
        var sentByMatch = [[String]: Row]()
        for row in sent {
            if let values = keys.values(of: row, columns: matchColumns) { sentByMatch[values] = row }
        }
        return readRows.enumerated().map { position, returnedRow in
            var base = keys.values(of: returnedRow, columns: matchColumns).flatMap { sentByMatch[$0] }
            if base == nil, readRows.count == sent.count,
                keys.values(of: sent[position], columns: matchColumns) == nil
            {
                base = sent[position]
            }
            return Laid(row: (base ?? Row([:])).merging(returnedRow), returnedColumns: returnedRow.columns)
        }
    }

    private func admits(_ row: Row, by query: QueryDescription) -> Truth {
        query.filters.isEmpty ? .true : evaluator.evaluate(query.filters, on: row)
    }

    /// Whether a laid row may join a list that does not hold it: a written row may (it carries
    /// what was written); a returned one only when it carries every column the list reads.
    private func mayJoin(_ laid: Laid, _ query: QueryDescription) -> Bool {
        guard let columns = laid.returnedColumns else { return true }
        return readShape.mayJoin(ReadShape(query), rowColumns: columns)
    }

    /// Whether a laid row may be merged into a row the list holds: it carries only columns the
    /// list reads (the held row has the rest).
    private func mayPatch(_ laid: Laid, _ query: QueryDescription) -> Bool {
        guard let columns = laid.returnedColumns else { return true }
        return readShape.mayPatch(ReadShape(query), rowColumns: columns)
    }

    /// Whether a row another list holds, patched by `laid`, may join a list: together they carry
    /// every column the list reads, and nothing it does not.
    private func mayJoin(_ held: Held, patchedBy laid: Laid, _ query: QueryDescription) -> Bool {
        var parts = [ReadShape.Part(shape: held.shape, columns: held.row.columns)]
        if let columns = laid.returnedColumns {
            parts.append(ReadShape.Part(shape: readShape, columns: columns))
        }
        return ReadShape.mayJoin(ReadShape(query), parts: parts)
    }

    /// Inserted or upserted rows laid into one cached list.
    private func place(_ laid: [Laid], matchColumns: [String], in list: CachedList) -> ListPatch {
        var rows = list.rows
        var changed = false
        for item in laid {
            var match = keys.values(of: item.row, columns: matchColumns).flatMap { wanted in
                rows.firstIndex { keys.values(of: $0, columns: matchColumns) == wanted }
            }
            if match == nil, matchColumns != keys.columns, let key = keys.key(of: item.row) {
                match = rows.firstIndex { keys.key(of: $0) == key }
            }
            if let match {
                guard mayPatch(item, list.query) else { return .stale }
                let merged = rows[match].merging(item.row)
                if admits(merged, by: list.query) == .false {
                    rows.remove(at: match)
                    changed = true
                } else if merged != rows[match] {
                    rows[match] = merged
                    changed = true
                }
            } else if admits(item.row, by: list.query) != .false {
                guard mayJoin(item, list.query) else { return .stale }
                rows.append(item.row)
                changed = true
            }
        }
        return changed && rows != list.rows ? .rows(rows) : .unchanged
    }

    /// The written rows a read with nothing cached admits.
    private func admitted(_ laid: [Laid], by query: QueryDescription) -> ListPatch {
        let admitted = laid.filter { admits($0.row, by: query) != .false }
        if admitted.isEmpty { return .unchanged }
        if admitted.contains(where: { !mayJoin($0, query) }) { return .stale }
        return .rows(admitted.map(\.row))
    }

    /// How an accepted UPDATE changes a held row.
    enum UpdateEffect {
        /// The server returned the updated rows: each key's columns to lay over the held row.
        case returned([RowKey: Laid])
        /// No rows came back: the sent columns patch the rows the filter provably matches.
        case filtered(Row)
    }

    /// The update's effect, or `nil` when the cache cannot work it out (a returned row without a
    /// key, or a filter the engine cannot evaluate on a held row).
    private func updateEffect(_ lists: [CachedList]) -> UpdateEffect? {
        let patch = write.rows.reduce(Row([:])) { $0.merging($1) }
        if let readRows {
            var byKey = [RowKey: Laid]()
            for row in readRows {
                guard let key = keys.key(of: row) else { return nil }
                byKey[key] = Laid(row: patch.merging(row), returnedColumns: row.columns)
            }
            return .returned(byKey)
        }
        for list in lists {
            for row in list.rows where evaluator.evaluate(write.filters, on: row) == .unknown {
                return nil
            }
        }
        return .filtered(patch)
    }

    /// The keyed rows cached lists hold, each in the version of the most recently fetched list.
    private func heldRows(_ lists: [CachedList]) -> [RowKey: Held] {
        var held = [RowKey: Held]()
        for list in lists.sorted(by: { $0.fetchTick < $1.fetchTick }) {
            let shape = ReadShape(list.query)
            for row in list.rows {
                if let key = keys.key(of: row) { held[key] = Held(row: row, shape: shape) }
            }
        }
        return held
    }

    /// What the update lays over `row`, or `nil` when it does not touch it.
    private func updated(_ row: Row, key: RowKey?, by effect: UpdateEffect) -> Laid? {
        switch effect {
        case .returned(let byKey):
            return key.flatMap { byKey[$0] }
        case .filtered(let patch):
            return evaluator.evaluate(write.filters, on: row) == .true
                ? Laid(row: patch, returnedColumns: nil) : nil
        }
    }

    /// An accepted UPDATE laid into one list: its rows patched (leaving when its filters then
    /// fail), and rows other lists hold moved in when they start matching.
    private func apply(_ effect: UpdateEffect, held: [RowKey: Held], to list: CachedList) -> ListPatch {
        var rows = [Row]()
        var holds = Set<RowKey>()
        var changed = false
        for row in list.rows {
            let key = keys.key(of: row)
            if let key { holds.insert(key) }
            guard let laid = updated(row, key: key, by: effect) else {
                rows.append(row)
                continue
            }
            guard mayPatch(laid, list.query) else { return .stale }
            let patched = row.merging(laid.row)
            if admits(patched, by: list.query) == .false {
                changed = true
                continue
            }
            if patched != row { changed = true }
            rows.append(patched)
        }
        let candidates = held.keys.filter { !holds.contains($0) }.sorted { $0.description < $1.description }
        for key in candidates {
            guard let other = held[key], let laid = updated(other.row, key: key, by: effect) else { continue }
            let patched = other.row.merging(laid.row)
            guard admits(other.row, by: list.query) == .false, admits(patched, by: list.query) != .false
            else { continue }
            // A row may join only when it carries every column the list reads: else fetch again.
            guard mayJoin(other, patchedBy: laid, list.query) else { return .stale }
            rows.append(patched)
            changed = true
        }
        return changed && rows != list.rows ? .rows(rows) : .unchanged
    }

    /// An accepted DELETE laid into one list: the returned keys, or the rows its filter provably
    /// matches, leave; a row the filter cannot be evaluated on makes the list stale.
    private func delete(_ deletedKeys: Set<RowKey>?, from list: CachedList) -> ListPatch {
        var rows = [Row]()
        for row in list.rows {
            if let deletedKeys {
                if let key = keys.key(of: row), deletedKeys.contains(key) { continue }
            } else {
                switch evaluator.evaluate(write.filters, on: row) {
                case .true: continue
                case .unknown: return .stale
                case .false: break
                }
            }
            rows.append(row)
        }
        return rows.count == list.rows.count ? .unchanged : .rows(rows)
    }
}
