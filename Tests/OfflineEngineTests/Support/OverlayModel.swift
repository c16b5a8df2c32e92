import Foundation

@testable import OfflineEngine

/// The rules of the overlay written the plain way: every write replayed one by one on arrays of
/// rows, every match found by scanning, no index. Shape compatibility (`ReadShape.mayJoin`) and
/// the values a list's filters imply (`ImpliedValues`, for the rows the list fetched) are shared
/// with the engine: they have their own tests.
struct OverlayModel {
    let evaluator = TestEvaluator(keyColumns: ["id"])

    func key(_ row: Row) -> String? {
        guard let value = row["id"] else { return nil }
        switch value {
        case .string(let text): return RowKey.normalised(text: text)
        case .number(let number): return number.text
        default: return nil
        }
    }

    func sameValues(_ left: Row, _ right: Row, _ columns: [String]) -> Bool {
        columns.allSatisfy { column in
            guard let a = left[column], let b = right[column], a != .null, b != .null else { return false }
            if case .string(let x) = a, case .string(let y) = b {
                return RowKey.normalised(text: x) == RowKey.normalised(text: y)
            }
            return a == b
        }
    }

    func admits(_ query: QueryDescription, _ row: Row) -> Truth { evaluator.evaluate(query.filters, on: row) }

    struct Known {
        var row: Row
        var shape: ReadShape?  // nil: written
    }

    /// The overlay of `writes` over `list`: rows, pending, refetch (due when a replayed write
    /// asked for it).
    func show(_ list: CachedList, others: [CachedList], writes: [OverlayWrite]) -> OverlayResult {
        let query = list.query
        let shape = ReadShape(query)
        let implied = ImpliedValues(query.filters)
        var rows = list.rows
        // Whether each row is one the list fetched (its filters' values hold for it).
        var fetched = rows.map { _ in true }
        func known(_ index: Int) -> Row { fetched[index] ? implied.filling(rows[index]) : rows[index] }
        func matches(_ filters: [Filter], _ index: Int) -> Bool {
            let undecided = fetched[index] ? implied.undecided(filters, on: rows[index]) : filters
            return undecided.isEmpty || evaluator.evaluate(undecided, on: rows[index]) == .true
        }
        var outside = [String: Known]()
        for other in others.sorted(by: { $0.fetchTick < $1.fetchTick }) where other.query.table == query.table
        {
            for row in other.rows {
                if let k = key(row), !rows.contains(where: { key($0) == k }) {
                    outside[k] = Known(row: row, shape: ReadShape(other.query))
                }
            }
        }
        var pending = false
        var refetch = false
        var refetchIsDue = false
        for write in writes where write.mutation.table == query.table && write.mutation.schema == query.schema
        {
            var changed = false
            let mutation = write.mutation
            switch mutation.operation {
            case .insert, .upsert:
                let conflict = mutation.operation == .upsert ? mutation.onConflict : nil
                for row in Self.asApplied(mutation) {
                    var match: Int?
                    if let conflict, !conflict.isEmpty, conflict != ["id"] {
                        match = rows.indices.first { sameValues(known($0), row, conflict) }
                    }
                    if match == nil, let k = key(row) { match = rows.indices.first { key(known($0)) == k } }
                    if let match {
                        let merged = rows[match].merging(row)
                        if admits(query, merged) == .false {
                            rows.remove(at: match)
                            fetched.remove(at: match)
                            if let k = key(merged) { outside[k] = Known(row: merged, shape: shape) }
                            changed = true
                        } else if merged != rows[match] {
                            rows[match] = merged
                            if let k = key(merged) { outside[k] = nil }
                            changed = true
                        }
                        continue
                    }
                    if let k = key(row) {
                        if mutation.operation == .upsert, let known = outside[k] {
                            outside[k] = Known(row: known.row.merging(row), shape: known.shape)
                        } else {
                            outside[k] = Known(row: row, shape: nil)
                        }
                    }
                    if admits(query, row) != .false {
                        rows.append(row)
                        fetched.append(false)
                        if let k = key(row) { outside[k] = nil }
                        changed = true
                    }
                }
            case .update:
                let patch = mutation.rows.reduce(Row([:])) { $0.merging($1) }
                let outsideBefore = outside
                var next = [Row]()
                var nextFetched = [Bool]()
                for (index, row) in rows.enumerated() {
                    guard matches(mutation.filters, index) else {
                        next.append(row)
                        nextFetched.append(fetched[index])
                        continue
                    }
                    let patched = row.merging(patch)
                    if admits(query, patched) == .false {
                        if let k = key(patched) { outside[k] = Known(row: patched, shape: shape) }
                        changed = true
                        continue
                    }
                    if patched != row { changed = true }
                    next.append(patched)
                    nextFetched.append(fetched[index])
                }
                rows = next
                fetched = nextFetched
                for k in outsideBefore.keys.sorted() {
                    guard let known = outside[k], evaluator.evaluate(mutation.filters, on: known.row) == .true
                    else { continue }
                    let patched = known.row.merging(patch)
                    outside[k] = nil
                    if admits(query, known.row) == .false && admits(query, patched) != .false {
                        let fits =
                            known.shape.map { $0.mayJoin(shape, rowColumns: known.row.columns) } ?? true
                        if fits {
                            rows.append(patched)
                            fetched.append(false)
                            changed = true
                            continue
                        }
                        refetch = true
                        if !write.isQueued { refetchIsDue = true }
                    }
                    outside[k] = Known(row: patched, shape: known.shape)
                }
            case .delete:
                let kept = rows.indices.filter { !matches(mutation.filters, $0) }
                changed = kept.count != rows.count
                rows = kept.map { rows[$0] }
                fetched = kept.map { fetched[$0] }
                outside = outside.filter { evaluator.evaluate(mutation.filters, on: $0.value.row) != .true }
            }
            if changed && write.isQueued { pending = true }
        }
        return OverlayResult(
            rows: QueryRows(rows), hasPendingMutations: pending, needsRefetch: refetch,
            refetchIsDue: refetchIsDue)
    }

    /// Whether a list reads plain columns by name (a row returned with an extra column cannot
    /// join it).
    func readsNamedColumns(_ query: QueryDescription) -> Bool { query.select != "*" }

    /// An accepted write patched into every list of the table (and reads with nothing cached).
    /// With `returned`, the server sent back each inserted or upserted row plus a `server` column.
    func patch(
        _ write: Mutation, returned: Bool, lists: [CachedList], uncached: [QueryDescription]
    ) -> OnlinePatchResult {
        var laid = Self.asApplied(write)
        if returned { laid = laid.map { $0.merging(["server": 1]) } }
        switch write.operation {
        case .insert, .upsert:
            let conflict = write.operation == .upsert ? (write.onConflict ?? ["id"]) : ["id"]
            if write.operation == .upsert
                && write.rows.contains(where: { row in
                    conflict.contains { row[$0] == nil || row[$0] == .null }
                })
            {
                return OnlinePatchResult(
                    lists: lists.map { _ in .stale }, uncachedReads: uncached.map { _ in .stale })
            }
            let cached = lists.map { list -> ListPatch in
                var rows = list.rows
                for row in laid {
                    var match = rows.firstIndex { sameValues($0, row, conflict) }
                    if match == nil, let k = key(row) { match = rows.firstIndex { key($0) == k } }
                    if let match {
                        if returned && readsNamedColumns(list.query) { return .stale }
                        let merged = rows[match].merging(row)
                        if admits(list.query, merged) == .false {
                            rows.remove(at: match)
                        } else {
                            rows[match] = merged
                        }
                    } else if admits(list.query, row) != .false {
                        if returned && readsNamedColumns(list.query) { return .stale }
                        rows.append(row)
                    }
                }
                return rows == list.rows ? .unchanged : .rows(rows)
            }
            let waiting = uncached.map { query -> ListPatch in
                let admitted = laid.filter { admits(query, $0) != .false }
                if admitted.isEmpty { return .unchanged }
                return returned && readsNamedColumns(query) ? .stale : .rows(admitted)
            }
            return OnlinePatchResult(lists: cached, uncachedReads: waiting)
        case .update, .delete:
            let cannotTell = lists.contains { list in
                list.rows.contains { evaluator.evaluate(write.filters, on: $0) == .unknown }
            }
            if write.operation == .update && cannotTell {
                return OnlinePatchResult(
                    lists: lists.map { _ in .stale }, uncachedReads: uncached.map { _ in .stale })
            }
            return OnlinePatchResult(
                lists: patchWithoutReturn(write, lists: lists),
                uncachedReads: uncached.map { _ in .unchanged })
        }
    }

    /// An accepted UPDATE or DELETE that sent no rows back, patched into every list.
    func patchWithoutReturn(_ write: Mutation, lists: [CachedList]) -> [ListPatch] {
        switch write.operation {
        case .insert, .upsert:
            return []  // laid by `patch`
        case .update:
            for list in lists {
                for row in list.rows where evaluator.evaluate(write.filters, on: row) == .unknown {
                    return lists.map { _ in .stale }
                }
            }
            let patch = write.rows.reduce(Row([:])) { $0.merging($1) }
            var held = [String: (Row, ReadShape)]()
            for list in lists.sorted(by: { $0.fetchTick < $1.fetchTick }) {
                for row in list.rows { if let k = key(row) { held[k] = (row, ReadShape(list.query)) } }
            }
            return lists.map { list in
                var rows = [Row]()
                for row in list.rows {
                    if evaluator.evaluate(write.filters, on: row) == .true {
                        let patched = row.merging(patch)
                        if admits(list.query, patched) != .false { rows.append(patched) }
                    } else {
                        rows.append(row)
                    }
                }
                for k in held.keys.sorted() where !list.rows.contains(where: { key($0) == k }) {
                    guard let (row, shape) = held[k], evaluator.evaluate(write.filters, on: row) == .true
                    else {
                        continue
                    }
                    let patched = row.merging(patch)
                    if admits(list.query, row) == .false && admits(list.query, patched) != .false {
                        guard shape.mayJoin(ReadShape(list.query), rowColumns: row.columns) else {
                            return .stale
                        }
                        rows.append(patched)
                    }
                }
                return rows == list.rows ? .unchanged : .rows(rows)
            }
        case .delete:
            return lists.map { list in
                if list.rows.contains(where: { evaluator.evaluate(write.filters, on: $0) == .unknown }) {
                    return .stale
                }
                let rows = list.rows.filter { evaluator.evaluate(write.filters, on: $0) != .true }
                return rows.count == list.rows.count ? .unchanged : .rows(rows)
            }
        }
    }

    /// The rows of an insert or upsert as PostgREST applies them: sent with `columns=` naming
    /// every row's keys when there are several, a key a row lacks is NULL there (unless
    /// `missing=default`).
    static func asApplied(_ write: Mutation) -> [Row] {
        guard write.rows.count > 1, !write.useDefaultForMissing else { return write.rows }
        var columns = Set<String>()
        for row in write.rows { columns.formUnion(row.columns) }
        return write.rows.map { row in
            var filled = row
            for column in columns.subtracting(row.columns) { filled = filled.merging([column: .null]) }
            return filled
        }
    }
}
