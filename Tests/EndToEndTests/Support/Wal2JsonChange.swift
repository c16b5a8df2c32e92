import Foundation
import OfflineEngine

/// A line of `wal2json`'s output (format version 2, what Supabase Realtime reads) as the
/// ``RowChange`` a realtime client would deliver; used instead of `test_decoding` where the
/// server has the plugin (Debian's `postgresql-15-wal2json`).
///
/// One JSON object per row change: `action` (`I`, `U`, `D`), `schema`, `table`, `columns` (the
/// new row: `name`, `type`, `value`), `identity` (the old row's replica identity: the whole row
/// under `REPLICA IDENTITY FULL`) and, with `include-timestamp`, the commit's `timestamp`.
/// Numbers and booleans come as JSON; other values as their text, turned into what PostgREST
/// answers as ``TestDecodingChange`` turns them. A value PostgreSQL keeps out of line and did not
/// change is left out, column and all.
enum Wal2JsonChange {
    /// The slot options that ask for this form: one object per change, types without their
    /// modifiers, and commit times.
    static let options =
        "'format-version', '2', 'include-transaction', '0', 'include-typmod', '0', 'include-timestamp', '1'"

    /// The change a line describes, or `nil` for any other line (a truncate, a message).
    static func change(from line: String) -> RowChange? {
        let kinds: [String: RowChange.Kind] = ["I": .insert, "U": .update, "D": .delete]
        guard case .object(let message)? = try? JSONText.parse(line),
            let kind = message["action"]?.stringValue.flatMap({ kinds[$0] }),
            let schema = message["schema"]?.stringValue, let table = message["table"]?.stringValue
        else { return nil }
        let new = columns(message["columns"])
        return RowChange(
            kind: kind, schema: schema, table: table, columns: new.map(\.name), record: row(new),
            oldRecord: row(columns(message["identity"])),
            commitTimestamp: message["timestamp"]?.stringValue.flatMap(TestDecodingChange.timestamp))
    }

    /// The `name`/`type`/`value` objects of a tuple, values as PostgREST answers them.
    private static func columns(_ tuple: JSONValue?) -> [(name: String, value: JSONValue)] {
        guard case .array(let items)? = tuple else { return [] }
        return items.compactMap { item in
            guard case .object(let column) = item, let name = column["name"]?.stringValue else { return nil }
            let value = column["value"] ?? .null
            guard case .string(let text) = value, let type = column["type"]?.stringValue else {
                return (name, value)
            }
            return (name, TestDecodingChange.json(text, type: type))
        }
    }

    private static func row(_ columns: [(name: String, value: JSONValue)]) -> Row {
        Row(Dictionary(columns.map { ($0.name, $0.value) }) { first, _ in first })
    }
}
