import Foundation
import OfflineEngine

/// A line of PostgreSQL's `test_decoding` output read back as the ``RowChange`` a realtime
/// client would deliver, so the end-to-end feed carries what the server committed and nothing a
/// test wrote by hand.
///
/// `test_decoding` ships with PostgreSQL and prints one line per row change:
///
/// ```text
/// table public.tasks: INSERT: id[bigint]:1 title[text]:'it''s' done[boolean]:false
/// table public.tasks: UPDATE: old-key: id[bigint]:1 ... new-tuple: id[bigint]:1 ...
/// table public.tasks: DELETE: id[bigint]:1 ...
/// ```
///
/// Values come as PostgreSQL's text output (numbers and booleans bare, everything else quoted
/// with `''` for a quote); they are turned into the JSON PostgREST answers with, so a row from
/// the feed compares equal to the same row read through the gateway. A value PostgreSQL keeps
/// out of line and did not change (`unchanged-toast-datum`) is left out of the record: the
/// record is then cut short, and ``RowChange/columns`` says so.
enum TestDecodingChange {
    /// The slot options this reading expects: no transaction ids, commit times, no empty
    /// transactions.
    static let options = "'include-xids', '0', 'include-timestamp', '1', 'skip-empty-xacts', '1'"

    /// The changes of a read of the slot, in commit order, each with its transaction's commit
    /// time (on the `COMMIT` line that follows them).
    static func changes(from lines: [String]) -> [RowChange] {
        var changes: [RowChange] = []
        var transaction: [RowChange] = []
        for line in lines {
            if line.hasPrefix("BEGIN") {
                transaction = []
            } else if line.hasPrefix("COMMIT") {
                let committedAt = commitTime(from: line)
                changes += transaction.map { change in
                    var change = change
                    change.commitTimestamp = committedAt
                    return change
                }
            } else if let change = change(from: line, committedAt: nil) {
                transaction.append(change)
            }
        }
        return changes
    }

    /// The change a `table ...` line describes, or `nil` for any other line (`BEGIN`, `COMMIT`)
    /// or one it cannot read.
    static func change(from line: String, committedAt: Date?) -> RowChange? {
        var reader = Reader(line[...])
        guard reader.skip("table "), let (schema, table) = reader.qualifiedName(), reader.skip(": ") else {
            return nil
        }
        let kinds: [(String, RowChange.Kind)] = [
            ("INSERT:", .insert), ("UPDATE:", .update), ("DELETE:", .delete),
        ]
        guard let kind = kinds.first(where: { reader.skip($0.0) })?.1 else { return nil }
        var old: [(String, JSONValue?)] = []
        var new: [(String, JSONValue?)] = []
        if kind == .update, reader.skip(" old-key:") {
            old = reader.columns(until: " new-tuple:")
            guard reader.skip(" new-tuple:") else { return nil }
        }
        let tuple = reader.columns(until: nil)
        if kind == .delete { old = tuple } else { new = tuple }
        func row(_ columns: [(String, JSONValue?)]) -> Row {
            Row(
                Dictionary(columns.compactMap { name, value in value.map { (name, $0) } }) { first, _ in first
                })
        }
        return RowChange(
            kind: kind, schema: schema, table: table, columns: new.map(\.0), record: row(new),
            oldRecord: row(old),
            commitTimestamp: committedAt)
    }

    /// The commit time of a `COMMIT (at 2026-01-02 03:04:05.678+00)` line (`include-timestamp`),
    /// or `nil` for any other line.
    static func commitTime(from line: String) -> Date? {
        guard line.hasPrefix("COMMIT"), let start = line.range(of: "(at ")?.upperBound,
            let end = line[start...].firstIndex(of: ")")
        else { return nil }
        return timestamp(String(line[start..<end]))
    }

    /// A `timestamptz` in PostgreSQL's ISO output (`2026-01-02 03:04:05.678+00`, the server runs in
    /// UTC) as a date.
    static func timestamp(_ text: String) -> Date? {
        // The fraction apart: the formatter reads at most milliseconds on some platforms.
        var iso = isoTimestamp(text)
        var fraction = 0.0
        if let dot = iso.firstIndex(of: "."),
            let zone = iso[dot...].firstIndex(where: { $0 == "+" || $0 == "-" })
        {
            fraction = Double("0" + iso[dot..<zone]) ?? 0
            iso.removeSubrange(dot..<zone)
        }
        return ISO8601DateFormatter().date(from: iso).map { $0.addingTimeInterval(fraction) }
    }

    /// PostgreSQL's text output of a date-time as JSON writes it (`to_json`, as PostgREST
    /// answers): a `T` between date and time, and a zone with its minutes.
    private static func isoTimestamp(_ text: String) -> String {
        var iso = text.replacingOccurrences(of: " ", with: "T")
        if let sign = iso.lastIndex(where: { $0 == "+" || $0 == "-" }), iso[..<sign].contains("T") {
            let zone = iso[iso.index(after: sign)...]
            if zone.count == 2 { iso += ":00" }
        }
        return iso
    }

    /// A value's text as the JSON PostgREST would answer with, by its type's name.
    static func json(_ text: String, type: String) -> JSONValue {
        switch type {
        case "smallint", "integer", "bigint", "oid", "numeric", "real", "double precision":
            return JSONNumber(text: text).map(JSONValue.number) ?? .string(text)
        case "boolean":
            return .bool(text == "true")
        case "json", "jsonb":
            return (try? JSONText.parse(text)) ?? .string(text)
        case "timestamp with time zone", "timestamp without time zone":
            return .string(isoTimestamp(text))
        default:
            return .string(text)
        }
    }

    /// A cursor over one line.
    private struct Reader {
        var rest: Substring

        init(_ text: Substring) { rest = text }

        /// Consumes `prefix` when the line goes on with it.
        mutating func skip(_ prefix: String) -> Bool {
            guard rest.hasPrefix(prefix) else { return false }
            rest = rest.dropFirst(prefix.count)
            return true
        }

        /// `schema.table`, either part possibly double-quoted.
        mutating func qualifiedName() -> (String, String)? {
            guard let schema = identifier(until: "."), skip("."), let table = identifier(until: ":") else {
                return nil
            }
            return (schema, table)
        }

        /// An identifier ending at `stop`, or double-quoted with `""` for a quote.
        mutating func identifier(until stop: Character) -> String? {
            if rest.first == "\"" { return quoted(by: "\"") }
            guard let end = rest.firstIndex(of: stop) else { return nil }
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }

        /// Text between `quote`s, a doubled quote standing for one.
        mutating func quoted(by quote: Character) -> String? {
            guard rest.first == quote else { return nil }
            rest = rest.dropFirst()
            var text = ""
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == quote {
                    guard rest.first == quote else { return text }
                    rest = rest.dropFirst()
                }
                text.append(character)
            }
            return nil
        }

        /// ` name[type]:value` pairs up to `marker` or the end of the line; a value left out
        /// of line and unchanged comes back `nil`.
        mutating func columns(until marker: String?) -> [(String, JSONValue?)] {
            var columns: [(String, JSONValue?)] = []
            while !rest.isEmpty, marker.map({ !rest.hasPrefix($0) }) ?? true, skip(" ") {
                guard let name = identifier(until: "["), skip("["),
                    let typeEnd = rest.range(of: "]:")
                else { break }
                let type = String(rest[..<typeEnd.lowerBound])
                rest = rest[typeEnd.upperBound...]
                if rest.first == "'" {
                    guard let text = quoted(by: "'") else { break }
                    columns.append((name, TestDecodingChange.json(text, type: type)))
                    continue
                }
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                let text = String(rest[..<end])
                rest = rest[end...]
                switch text {
                case "null": columns.append((name, .null))
                case "unchanged-toast-datum": columns.append((name, nil))
                default: columns.append((name, TestDecodingChange.json(text, type: type)))
                }
            }
            return columns
        }
    }
}
