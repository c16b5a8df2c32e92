import Foundation

/// The JSON form the store persists for filters and writes. It is versioned with the store's
/// schema, so a change here needs a migration.
enum PersistedForm {
    struct Invalid: Error, CustomStringConvertible {
        let what: String
        var description: String { "A stored \(what) could not be read." }
    }

    static func json(_ filter: Filter) -> JSONValue {
        switch filter {
        case .condition(let condition):
            var object: [String: JSONValue] = [
                "c": .string(condition.column), "op": .string(condition.op.rawValue),
                "not": .bool(condition.negated),
            ]
            switch condition.operand {
            case .value(let text): object["v"] = .string(text)
            case .list(let items): object["l"] = .array(items.map(JSONValue.string))
            }
            return .object(object)
        case .and(let parts, let negated):
            return ["and": .array(parts.map(json)), "not": .bool(negated)]
        case .or(let parts, let negated):
            return ["or": .array(parts.map(json)), "not": .bool(negated)]
        case .unparsed(let key, let value):
            return ["raw": .string(key), "v": .string(value)]
        }
    }

    static func filter(_ json: JSONValue) throws -> Filter {
        guard case .object(let object) = json else { throw Invalid(what: "filter") }
        let negated = object["not"]?.boolValue ?? false
        if case .array(let parts)? = object["and"] {
            return .and(try parts.map(filter), negated: negated)
        }
        if case .array(let parts)? = object["or"] {
            return .or(try parts.map(filter), negated: negated)
        }
        if let key = object["raw"]?.stringValue, let value = object["v"]?.stringValue {
            return .unparsed(key: key, value: value)
        }
        guard let column = object["c"]?.stringValue, let op = object["op"]?.stringValue else {
            throw Invalid(what: "filter")
        }
        let operand: FilterOperand
        if let text = object["v"]?.stringValue {
            operand = .value(text)
        } else if case .array(let items)? = object["l"] {
            operand = .list(
                try items.map { item in
                    guard let text = item.stringValue else { throw Invalid(what: "filter") }
                    return text
                })
        } else {
            throw Invalid(what: "filter")
        }
        return .condition(
            FilterCondition(
                column: column, op: FilterOperator(rawValue: op), operand: operand, negated: negated))
    }

    static func mutation(_ json: JSONValue) throws -> Mutation {
        guard case .object(let object) = json,
            let id = object["id"]?.stringValue.flatMap(UUID.init(uuidString:)),
            let table = object["table"]?.stringValue,
            let operation = object["op"]?.stringValue.flatMap(MutationOperation.init(rawValue:)),
            case .array(let rows)? = object["rows"],
            case .array(let filters)? = object["filters"],
            let created = object["createdAt"]?.numberValue?.doubleValue, created.isFinite
        else { throw Invalid(what: "write") }
        let onConflict: [String]?
        if case .array(let columns)? = object["onConflict"] {
            onConflict = columns.compactMap(\.stringValue)
        } else {
            onConflict = nil
        }
        var write = Mutation(
            id: id, ownerID: object["owner"]?.stringValue, schema: object["schema"]?.stringValue,
            table: table, operation: operation,
            rows: try rows.map { element in
                guard let row = Row(json: element) else { throw Invalid(what: "write") }
                return row
            },
            filters: try filters.map(filter), onConflict: onConflict,
            ignoreDuplicates: object["ignoreDuplicates"]?.boolValue ?? false,
            useDefaultForMissing: object["missingDefault"]?.boolValue ?? false,
            returning: object["returning"]?.stringValue,
            createdAt: Date(timeIntervalSince1970: created),
            attempts: object["attempts"]?.numberValue?.intValue ?? 0)
        write.expectsRows = object["expectRows"]?.boolValue ?? false
        if case .array(let columns)? = object["shownOnly"] {
            write.shownOnlyColumns = Set(columns.compactMap(\.stringValue))
        }
        return write
    }
}

extension Mutation {
    /// The write as JSON bytes, the form the store keeps (see ``PersistedWriteText``).
    func persistedData() -> Data { PersistedWriteText.data(self) }

    /// A write read back from the store's JSON bytes.
    init(persistedData data: Data) throws {
        self = try PersistedForm.mutation(try JSONText.parse(data))
    }
}
