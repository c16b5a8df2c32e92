import Foundation

@testable import OfflineEngine

/// The stored form of a write built as a JSON value, the way the store wrote it before
/// `PersistedWriteText`: the oracle its bytes are checked against (written with sorted keys,
/// the two must give the same text).
enum PersistedWriteValue {
    static func json(_ mutation: Mutation) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(mutation.id.lowercasedText),
            "table": .string(mutation.table),
            "op": .string(mutation.operation.rawValue),
            "rows": .array(mutation.rows.map(\.json)),
            "filters": .array(mutation.filters.map(PersistedForm.json)),
            "ignoreDuplicates": .bool(mutation.ignoreDuplicates),
            "missingDefault": .bool(mutation.useDefaultForMissing),
            "createdAt": .number(JSONNumber(mutation.createdAt.timeIntervalSince1970)),
            "attempts": .number(JSONNumber(mutation.attempts)),
        ]
        if let owner = mutation.ownerID { object["owner"] = .string(owner) }
        if let schema = mutation.schema { object["schema"] = .string(schema) }
        if let columns = mutation.onConflict { object["onConflict"] = .array(columns.map(JSONValue.string)) }
        if let returning = mutation.returning { object["returning"] = .string(returning) }
        // Written only when set: a store of an earlier version reads the same bytes.
        if mutation.expectsRows { object["expectRows"] = .bool(true) }
        if !mutation.shownOnlyColumns.isEmpty {
            object["shownOnly"] = .array(mutation.shownOnlyColumns.sorted().map(JSONValue.string))
        }
        return .object(object)
    }
}
