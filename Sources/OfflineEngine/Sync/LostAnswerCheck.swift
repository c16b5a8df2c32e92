import Foundation

/// What the server's rows say of an INSERT whose earlier answer was lost and whose replay met
/// a row with its key (409, 23505).
enum LostAnswerCheck: Sendable, Equatable {
    /// Every row under the insert's keys holds what was sent: the earlier attempt applied it.
    case applied
    /// A row is missing or provably holds something else: a real conflict.
    case notApplied
    /// The checking read failed: try again later, never "not applied".
    case unknown

    /// Whether the server's value of a column is provably not the value sent, by PostgreSQL's
    /// typed equality as the filter evaluator decides it: `2024-01-15T12:00:00Z` and
    /// `…+00:00`, `1.50` and `1.5` are not provably different, so they count as the same.
    static func provablyDiffers(stored: JSONValue?, sent: JSONValue, isKey: Bool) -> Bool {
        guard let stored, stored != sent else { return false }
        switch (stored, sent) {
        case (.null, _), (_, .null):
            return true
        case (.array, _), (.object, _), (_, .array), (_, .object):
            return false
        default:
            break
        }
        let text: String
        switch sent {
        case .string(let string): text = string
        case .number(let number): text = number.text
        case .bool(let flag): text = flag ? "true" : "false"
        default: return false
        }
        return ValueEquality.verdict(stored, equals: text, isKey: { isKey }) == .false
    }
}

extension Engine {
    /// Reads the rows under an insert's keys with the write's own session (row-level security
    /// shows the owner's rows only) and compares them with what was sent.
    func lostAnswerCheck(_ insert: Mutation, ticket: SendTicket) async -> LostAnswerCheck {
        let keyColumns = primaryKeys.columns(for: insert.table)
        for row in insert.rows {
            guard let key = primaryKeys.key(of: row, in: insert.table) else { return .notApplied }
            var query = QueryDescription(schema: insert.schema, table: insert.table)
            for (column, value) in zip(keyColumns, key.values) {
                query.filters.append(
                    .condition(FilterCondition(column: column, op: .eq, operand: .value(value))))
            }
            let stored: Row
            do {
                let (rows, _) = try await fetchFromServer(query, accessToken: ticket.accessToken)
                guard let first = rows.first else { return .notApplied }
                stored = first
            } catch {
                return .unknown
            }
            for (column, value) in row.values
            where LostAnswerCheck.provablyDiffers(
                stored: stored[column], sent: value, isKey: keyColumns.contains(column))
            {
                return .notApplied
            }
        }
        return .applied
    }
}
