import Foundation

/// A PostgREST filter operator such as `eq` or `in`, with any modifier (`like(any)`,
/// `fts(english)`) as part of its name.
public struct FilterOperator: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The operator as written in the URL.
    public let rawValue: String

    /// An operator from its URL name.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// `=`
    public static let eq = FilterOperator(rawValue: "eq")
    /// `<>`
    public static let neq = FilterOperator(rawValue: "neq")
    /// `>`
    public static let gt = FilterOperator(rawValue: "gt")
    /// `>=`
    public static let gte = FilterOperator(rawValue: "gte")
    /// `<`
    public static let lt = FilterOperator(rawValue: "lt")
    /// `<=`
    public static let lte = FilterOperator(rawValue: "lte")
    /// `LIKE`, with `*` for `%`.
    public static let like = FilterOperator(rawValue: "like")
    /// `ILIKE`, with `*` for `%`.
    public static let ilike = FilterOperator(rawValue: "ilike")
    /// `~`
    public static let match = FilterOperator(rawValue: "match")
    /// `~*`
    public static let imatch = FilterOperator(rawValue: "imatch")
    /// `= ANY(...)`
    public static let `in` = FilterOperator(rawValue: "in")
    /// `IS NULL / NOT NULL / TRUE / FALSE / UNKNOWN`
    public static let `is` = FilterOperator(rawValue: "is")
    /// `IS DISTINCT FROM`
    public static let isDistinct = FilterOperator(rawValue: "isdistinct")
    /// Full-text search.
    public static let fts = FilterOperator(rawValue: "fts")
    /// Contains (`@>`).
    public static let cs = FilterOperator(rawValue: "cs")
    /// Contained by (`<@`).
    public static let cd = FilterOperator(rawValue: "cd")
    /// Overlaps (`&&`).
    public static let ov = FilterOperator(rawValue: "ov")
}

/// One condition on a column: `column=[not.]op.operand`.
public struct FilterCondition: Sendable, Hashable {
    /// The column (or JSON path such as `data->>key`) the condition reads.
    public var column: String
    /// The operator.
    public var op: FilterOperator
    /// What the column is compared with.
    public var operand: FilterOperand
    /// Whether the condition is wrapped in `not.`.
    public var negated: Bool

    /// A condition from its parts.
    public init(column: String, op: FilterOperator, operand: FilterOperand, negated: Bool = false) {
        self.column = column
        self.op = op
        self.operand = operand
        self.negated = negated
    }
}

/// The right-hand side of a condition, as PostgREST reads it (already unquoted).
public enum FilterOperand: Sendable, Hashable {
    /// A single value: the exact text PostgREST compares with (`eq.007` holds `007`).
    case value(String)
    /// The elements of an `in.(...)` list, each already unquoted. PostgREST quotes every element
    /// it sends on, so a list never holds SQL NULL.
    case list([String])
}

/// A filter tree: conditions combined with `and`/`or`, each part possibly negated.
///
/// The top-level filters of a query are ANDed. A parameter the engine could not parse is kept
/// as ``unparsed(key:value:)``: it is sent as it is and never evaluated locally.
public indirect enum Filter: Sendable, Hashable {
    /// One condition.
    case condition(FilterCondition)
    /// All of the parts (`and=(...)`, or `not.and=(...)` when negated).
    case and([Filter], negated: Bool)
    /// Any of the parts (`or=(...)`, or `not.or=(...)` when negated).
    case or([Filter], negated: Bool)
    /// A query parameter kept verbatim, which the engine treats as unknown.
    case unparsed(key: String, value: String)
}

/// One `order` term.
public struct OrderTerm: Sendable, Hashable {
    /// The column to sort by.
    public var column: String
    /// Ascending (`asc`) or descending (`desc`).
    public var ascending: Bool
    /// `nullsfirst` or `nullslast`; `nil` leaves Postgres's default.
    public var nullsFirst: Bool?

    /// An order term from its parts.
    public init(column: String, ascending: Bool = true, nullsFirst: Bool? = nil) {
        self.column = column
        self.ascending = ascending
        self.nullsFirst = nullsFirst
    }
}

/// A raw query parameter (name and value before URL encoding).
public struct QueryParameter: Sendable, Hashable {
    /// The parameter name, e.g. `actors.order`.
    public var name: String
    /// The parameter value, e.g. `last_name.desc`.
    public var value: String

    /// A parameter from its name and value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
