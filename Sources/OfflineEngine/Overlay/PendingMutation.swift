import Foundation

/// A write waiting in the mutation queue, as the app sees it: which table and rows it touches,
/// so a list can mark those rows as not yet synced.
public struct PendingMutation: Sendable, Hashable, Identifiable {
    /// The write's id.
    public let id: UUID
    /// The table written to.
    public let table: String
    /// Insert, upsert, update or delete.
    public let operation: MutationOperation
    /// The keys of the rows the write touches: an insert's or upsert's rows by the table's
    /// primary key; an update's or delete's rows pinned by `eq`/`in` filters on the key.
    public let rowKeys: [RowKey]
    /// The row keys as text (`RowKey.description`), as the app compares them with its ids.
    public let rowIDs: [String]
    /// When the write was made.
    public let createdAt: Date
    /// The user who made the write, or `nil` when nobody was signed in.
    public let ownerID: String?

    /// The pending view of a queued write.
    init(_ mutation: Mutation, primaryKeys: PrimaryKeys) {
        id = mutation.id
        table = mutation.table
        operation = mutation.operation
        rowKeys = PendingMutation.rowKeys(of: mutation, primaryKeys: primaryKeys)
        rowIDs = rowKeys.map(\.description)
        createdAt = mutation.createdAt
        ownerID = mutation.ownerID
    }

    /// The keys of the rows `mutation` touches, without repeats, in the order written.
    static func rowKeys(of mutation: Mutation, primaryKeys: PrimaryKeys) -> [RowKey] {
        let keys = OverlayKeys(table: mutation.table, primaryKeys: primaryKeys)
        var found: [RowKey]
        switch mutation.operation {
        case .insert, .upsert:
            let rows = mutation.rows
            // One row (most writes): its key alone, with no array grown for it.
            found =
                rows.count == 1 ? keys.key(of: rows[0]).map { [$0] } ?? [] : rows.compactMap(keys.key(of:))
        case .update, .delete:
            if let pinned = keys.pinnedKeys(by: mutation.filters) {
                found = pinned
            } else if let composite = compositeKey(pinnedBy: mutation.filters, columns: keys.columns) {
                found = [composite]
            } else {
                found = []
            }
        }
        // One key (most writes touch one row) has no repeat to drop: no set is made for it.
        guard found.count > 1 else { return found }
        var seen = Set<RowKey>()
        return found.filter { seen.insert($0).inserted }
    }

    /// The one key a composite primary key's columns are each pinned to by a top-level `eq`.
    private static func compositeKey(pinnedBy filters: [Filter], columns: [String]) -> RowKey? {
        guard columns.count > 1 else { return nil }
        var values = [String: String]()
        for case .condition(let condition) in filters where condition.op == .eq && !condition.negated {
            if case .value(let text) = condition.operand {
                values[condition.column] = RowKey.normalised(text: text)
            }
        }
        let ordered = columns.compactMap { values[$0] }
        return ordered.count == columns.count ? RowKey(values: ordered) : nil
    }
}
