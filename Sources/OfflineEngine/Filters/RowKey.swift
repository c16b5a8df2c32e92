import Foundation

/// A row's identity: the normalised values of its table's primary-key columns, in order.
public struct RowKey: Sendable, Hashable, CustomStringConvertible {
    /// Each key column's value as normalised text (UUIDs in lower case).
    public let values: [String]

    /// A key from already-normalised values.
    public init(values: [String]) { self.values = values }

    /// The key as one string: the single value, or the values joined by commas.
    public var description: String { values.joined(separator: ",") }
}

/// Which columns identify a row in each table: `id` unless the configuration names others.
package struct PrimaryKeys: Sendable, Hashable {
    /// Key columns per table; a table not named here uses `["id"]`.
    package var byTable: [String: [String]]
    /// Per table with settings (``Configuration/tables``), the column an embed of each named table
    /// follows, as the app declared it (``TableSettings/foreignKeys``): only such a table's
    /// written rows take embeds of one row.
    package var foreignKeys: [String: [String: String]]

    /// Primary keys from a per-table map, with the foreign keys the app declared.
    package init(_ byTable: [String: [String]] = [:], foreignKeys: [String: [String: String]] = [:]) {
        self.byTable = byTable
        self.foreignKeys = foreignKeys
    }

    /// The key columns of `table`.
    package func columns(for table: String) -> [String] { byTable[table] ?? ["id"] }

    /// The key of `row` in `table`, or `nil` when the row lacks a key column or one is null.
    package func key(of row: Row, in table: String) -> RowKey? {
        var values = [String]()
        for column in columns(for: table) {
            guard let value = row[column], let text = RowKey.normalised(value) else { return nil }
            values.append(text)
        }
        return RowKey(values: values)
    }
}

extension RowKey {
    /// A key value as text: UUIDs in lower case, so a key written in capitals matches the same key
    /// sent back in lower case; other strings and numbers as they are.
    package static func normalised(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text):
            return normalised(text: text)
        case .number(let number):
            return number.text
        case .bool(let flag):
            return flag ? "true" : "false"
        case .null, .array, .object:
            return nil
        }
    }

    /// Key text from a filter value or a string column. Text without an ASCII capital is
    /// returned as it is without parsing (a UUID in lower case is already in its normal form):
    /// keys are normalised for every row the overlay indexes.
    static func normalised(text: String) -> String {
        let hasCapital =
            text.utf8.withContiguousStorageIfAvailable(RowKey.hasCapital)
            ?? Array(text.utf8).withUnsafeBufferPointer(RowKey.hasCapital)
        guard hasCapital, let uuid = UUID(uuidString: text) else { return text }
        return uuid.lowercasedText
    }

    /// Whether UTF-8 text holds an ASCII capital letter.
    private static func hasCapital(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte &- UInt8(ascii: "A") < 26 { return true }
        return false
    }
}
