import Synchronization

/// Whether new facts of a table may change what one live read shows, decided where the facts are
/// sent, so the read is not woken for writes to its table that cannot reach it.
///
/// Only an INSERT can be told apart cheaply: it changes the read's rows when its filters may
/// admit a row, or when the read may hold a row with the same key (the row merges into it). Any
/// other change (a list fetched, an UPDATE, a DELETE, an UPSERT, another owner) always wakes the
/// read.
///
/// The keys the read may hold are worked out from the facts alone, never from what the read
/// composed (so nothing flows back into the pipeline): the keys of its cached list's rows, and
/// of the rows of every write laid over it (queued, and replayed writes the list has not seen).
/// That is a superset of the keys its rows have, unless a laid UPDATE moved rows in or changed a
/// key: then every change wakes the read. The list's keys are worked out once per version of the
/// facts, the queued writes' as writes are appended.
final class ReachHint: Sendable {
    private let listKey: String
    private let filters: [Filter]
    private let keys: OverlayKeys
    private let evaluator: FilterEvaluator
    private let memo = Mutex(Memo())

    /// What the keys were worked out from, and the keys.
    private struct Memo {
        var version = -1
        var owner: String?
        /// The keys of the list's rows and of the unseen replayed writes' rows; `nil` when one of
        /// those writes is an UPDATE.
        var heldKeys: Set<String>? = []
        /// The queued writes covered by `queuedKeys`.
        var queued = WriteLog()
        /// The keys of the queued writes' rows (the owner's); `nil` once one is an UPDATE.
        var queuedKeys: Set<String>? = []
    }

    /// A hint for the live read of `query`.
    init(query: QueryDescription, primaryKeys: PrimaryKeys) {
        listKey = query.canonicalKey
        filters = query.filters
        keys = OverlayKeys(table: query.table, primaryKeys: primaryKeys)
        evaluator = FilterEvaluator(keyColumns: Set(keys.columns))
    }

    /// Whether `facts` may change what the read shows: `false` only when they differ from the
    /// facts sent before by appended INSERTs that none of the read's filters admit and whose
    /// rows have no key a row of the read may have.
    func mayChange(_ facts: TableFacts) -> Bool {
        guard !filters.isEmpty, let before = facts.appendedSince, facts.queued.extends(before) else {
            return true
        }
        var refusedKeys: [String] = []
        for write in facts.queued.writes(after: before) where write.applies(to: facts.owner) {
            guard write.operation == .insert else { return true }
            for row in write.rows {
                guard evaluator.evaluate(filters, on: row) == .false else { return true }
                if let key = keys.indexKey(of: row) { refusedKeys.append(key) }
            }
        }
        guard !refusedKeys.isEmpty else { return false }
        return memo.withLock { memo in
            update(&memo, to: facts, before: before)
            guard let held = memo.heldKeys, let queued = memo.queuedKeys else { return true }
            return refusedKeys.contains { held.contains($0) || queued.contains($0) }
        }
    }

    /// Brings the keys up to the facts as they stood before the appended writes.
    private func update(_ memo: inout Memo, to facts: TableFacts, before: WriteLog) {
        if memo.version != facts.version || memo.owner != facts.owner {
            memo.version = facts.version
            memo.owner = facts.owner
            memo.heldKeys = heldKeys(facts)
            memo.queued = WriteLog()
            memo.queuedKeys = []
        }
        let extends = before.extends(memo.queued)
        let added = extends ? before.writes(after: memo.queued) : before.writes
        if !extends { memo.queuedKeys = [] }
        memo.queued = before
        for write in added where write.applies(to: facts.owner) {
            guard memo.queuedKeys != nil, add(write, to: &memo.queuedKeys!) else {
                memo.queuedKeys = nil
                return
            }
        }
    }

    /// The keys of the list's rows and of the rows of the replayed writes it has not seen.
    private func heldKeys(_ facts: TableFacts) -> Set<String>? {
        guard let entry = facts.lists[listKey] else { return [] }
        var held = Set(entry.list.rows.compactMap(keys.indexKey(of:)))
        let unseen = ReplayLog.unseen(facts.replayed, fetchTick: entry.list.fetchTick)
        for entry in unseen where entry.mutation.applies(to: facts.owner) {
            guard add(entry.mutation, to: &held) else { return nil }
        }
        return held
    }

    /// Adds the keys of `write`'s rows to `known`, in place; `false` for an UPDATE (it may move
    /// rows in, or change a row's key), whose keys cannot be known.
    private func add(_ write: Mutation, to known: inout Set<String>) -> Bool {
        guard write.operation != .update else { return false }
        for row in write.rows {
            if let key = keys.indexKey(of: row) { known.insert(key) }
        }
        return true
    }
}
