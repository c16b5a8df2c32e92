import Foundation

extension Replayer {
    /// How many keys one checking read asks for (`key=in.(…)`), so that its URL stays short.
    static let keysPerCheck = 50

    /// Reads the rows under the keys of inserts whose answer was lost, with their owner's session
    /// (row-level security shows the owner's rows only) and only while their ticket holds (a
    /// read that may not leave is unknown, as a failed one), and tells for each insert whether the
    /// server holds what was sent. A table keyed by one column is read a few dozen keys a request;
    /// one keyed by several, a key a request. A read that fails makes every check unknown.
    func lostAnswerChecks(_ inserts: [Mutation], ticket: SendTicket) async -> [LostAnswerCheck] {
        guard let first = inserts.first else { return [] }
        let table = first.table
        let keyColumns = primaryKeys.columns(for: table)
        let keys = Array(
            Set(inserts.flatMap { $0.sentRows.compactMap { primaryKeys.key(of: $0, in: table) } }))
        let perRead = keyColumns.count == 1 ? Self.keysPerCheck : 1
        var stored: [RowKey: Row] = [:]
        for start in stride(from: 0, to: keys.count, by: perRead) {
            let chunk = keys[start..<min(start + perRead, keys.count)]
            var query = QueryDescription(schema: first.schema, table: table)
            if chunk.count == 1, let key = chunk.first {
                for (column, value) in zip(keyColumns, key.values) {
                    query.filters.append(
                        .condition(FilterCondition(column: column, op: .eq, operand: .value(value))))
                }
            } else {
                let values = chunk.compactMap(\.values.first)
                query.filters = [
                    .condition(FilterCondition(column: keyColumns[0], op: .in, operand: .list(values)))
                ]
            }
            do {
                for row in try await reads.fetch(query, as: ticket) {
                    if let key = primaryKeys.key(of: row, in: table) { stored[key] = row }
                }
            } catch {
                return inserts.map { _ in .unknown }
            }
        }
        return inserts.map { insert in
            for row in insert.sentRows {
                guard let key = primaryKeys.key(of: row, in: table), let server = stored[key] else {
                    return .notApplied
                }
                for (column, value) in row.values
                where LostAnswerCheck.provablyDiffers(
                    stored: server[column], sent: value, isKey: keyColumns.contains(column))
                {
                    return .notApplied
                }
            }
            return .applied
        }
    }
}
