import OfflineEngine

/// One condition of a read or a write, as data: the filters the overlay evaluates (`eq`, `neq`,
/// `in`, `is`) and a few it cannot (`gt`, `like`), so a scenario can say which is which.
enum Condition: Sendable, CustomStringConvertible {
    case eq(String, JSONValue)
    case neq(String, JSONValue)
    case `in`(String, [JSONValue])
    case isNull(String)
    case gt(String, JSONValue)
    case like(String, String)

    /// `query` with this condition added.
    func apply<Q: FilterBuilding>(to query: Q) -> Q {
        switch self {
        case .eq(let column, let value): query.eq(column, value: value)
        case .neq(let column, let value): query.neq(column, value: value)
        case .in(let column, let values): query.in(column, values: values)
        case .isNull(let column): query.is(column, value: nil)
        case .gt(let column, let value): query.gt(column, value: value)
        case .like(let column, let pattern): query.like(column, pattern: pattern)
        }
    }

    var description: String {
        switch self {
        case .eq(let column, let value): "\(column)=eq.\(value.rawValue)"
        case .neq(let column, let value): "\(column)=neq.\(value.rawValue)"
        case .in(let column, let values): "\(column)=in.(\(values.map(\.rawValue).joined(separator: ",")))"
        case .isNull(let column): "\(column)=is.null"
        case .gt(let column, let value): "\(column)=gt.\(value.rawValue)"
        case .like(let column, let pattern): "\(column)=like.\(pattern)"
        }
    }
}

/// A read as data: table, columns, conditions, order and limit.
struct SpecRead: Sendable, CustomStringConvertible {
    var table: String
    var columns = "*"
    var conditions: [Condition] = []
    var order: String?
    var limit: Int?

    init(
        _ table: String = "tasks", columns: String = "*", where conditions: Condition...,
        order: String? = nil,
        limit: Int? = nil
    ) {
        self.table = table
        self.columns = columns
        self.conditions = conditions
        self.order = order
        self.limit = limit
    }

    /// The query on `client`.
    func query(on client: OfflineClient) -> ReadQuery {
        var read = conditions.reduce(client.from(table).select(columns)) { $1.apply(to: $0) }
        if let order { read = read.order(order) }
        if let limit { read = read.limit(limit) }
        return read
    }

    var description: String {
        var parts = [table, "select=\(columns)"] + conditions.map(\.description)
        if let order { parts.append("order=\(order)") }
        if let limit { parts.append("limit=\(limit)") }
        return parts.joined(separator: "?")
    }
}

/// A write as data: insert, update, upsert or delete, with what it asks back.
struct SpecWrite: Sendable, CustomStringConvertible {
    enum Kind: Sendable { case insert, update, upsert, delete }

    var kind: Kind
    var table: String
    var rows: [Row] = []
    var conditions: [Condition] = []
    var onConflict: String?
    var ignoreDuplicates = false
    /// Asks for the written rows back (`select()`).
    var returning = false

    static func insert(_ table: String, _ rows: Row...) -> SpecWrite {
        SpecWrite(kind: .insert, table: table, rows: rows)
    }

    static func update(_ table: String, set patch: Row, where conditions: Condition...) -> SpecWrite {
        SpecWrite(kind: .update, table: table, rows: [patch], conditions: conditions)
    }

    static func upsert(
        _ table: String, _ rows: Row..., onConflict: String? = nil, ignoreDuplicates: Bool = false
    ) -> SpecWrite {
        SpecWrite(
            kind: .upsert, table: table, rows: rows, onConflict: onConflict,
            ignoreDuplicates: ignoreDuplicates)
    }

    static func delete(_ table: String, where conditions: Condition...) -> SpecWrite {
        SpecWrite(kind: .delete, table: table, conditions: conditions)
    }

    /// This write, asking for its rows back.
    var selecting: SpecWrite {
        var copy = self
        copy.returning = true
        return copy
    }

    /// The write on `client`.
    func query(on client: OfflineClient) throws -> WriteQuery {
        let from = client.from(table)
        var write: WriteQuery
        switch kind {
        case .insert: write = try from.insert(rows)
        case .update: write = try from.update(rows[0])
        case .upsert:
            write = try from.upsert(rows, onConflict: onConflict, ignoreDuplicates: ignoreDuplicates)
        case .delete: write = from.delete()
        }
        write = conditions.reduce(write) { $1.apply(to: $0) }
        return returning ? write.select() : write
    }

    var description: String {
        let rowsText = rows.map { $0.json.description }.joined(separator: ",")
        let whereText = conditions.map(\.description).joined(separator: "&")
        return "\(kind) \(table) \(rowsText) \(whereText)"
    }
}
