import Foundation

/// A query or write the engine cannot send as given; nothing was sent and nothing is lost.
///
/// The description names what is wrong, never the table, column or value itself.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What is wrong with the input.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The table name is empty or holds characters that cannot go in a URL path.
        case invalidTableName
        /// The schema name is empty or holds characters that cannot go in a header.
        case invalidSchemaName
        /// A column name is empty or holds characters that cannot be written in a filter.
        case invalidColumnName
        /// A filter names a column PostgREST reserves for itself (`select`, `order`, ...).
        case reservedColumnName
        /// A value holds a NUL character, which PostgreSQL text cannot store.
        case nulCharacter
        /// A filter cannot be written in PostgREST's grammar (an `is` value other than
        /// null, true, false or unknown inside `or`/`and`, say).
        case unencodableFilter
        /// An insert, upsert or update carries no row.
        case noRows
        /// An update carries more than one patch row.
        case updateNeedsOneRow
        /// The values to write do not encode into JSON objects.
        case valuesAreNotRows
        /// A limit or offset is negative, or a range ends before it starts.
        case invalidRange
    }

    /// What is wrong.
    public var kind: Kind

    /// An input error of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .invalidTableName:
            return "The table name is empty or holds characters PostgREST cannot take in a URL path "
                + "(/, ?, #, %, spaces or control characters)."
        case .invalidSchemaName:
            return "The schema name is empty or holds control characters."
        case .invalidColumnName:
            return "A filter's column name is empty or holds characters that cannot be written in a query."
        case .reservedColumnName:
            return "A filter names a column PostgREST reserves for its own parameters "
                + "(select, columns, on_conflict, order, limit, offset, and, or)."
        case .nulCharacter:
            return "A value holds a NUL character, which PostgreSQL text cannot store."
        case .unencodableFilter:
            return "A filter cannot be written in PostgREST's query grammar."
        case .noRows:
            return "The write carries no row to send."
        case .updateNeedsOneRow:
            return "An update takes exactly one object of new column values."
        case .valuesAreNotRows:
            return "The values to write do not encode into JSON objects (rows)."
        case .invalidRange:
            return "A limit or offset is negative, or a range ends before it starts."
        }
    }

    public var errorDescription: String? { description }
}
