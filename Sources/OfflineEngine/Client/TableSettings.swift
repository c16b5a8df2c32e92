import Foundation

/// What the client knows of one table: its key columns, and the values the server would fill
/// in that the device makes for a row written offline, so the row decodes in every list before
/// the server has it.
///
/// ```swift
/// configuration.tables = [
///     "channels": TableSettings(key: ["id"], madeOnDevice: ["id": .uuid, "created_at": .now]),
///     "likes": TableSettings(key: ["user_id", "post_id"]),
/// ]
/// ```
///
/// An insert or upsert whose row lacks one of `madeOnDevice`'s columns gets it before it is
/// queued or sent, so its row in every list, its ``PendingMutation/rowKeys`` and the `value` of
/// `execute()` carry it. A ``DeviceValue/uuid`` key is sent, so the server stores the same value
/// and a write whose answer was lost is settled by reading that key back; a time or a constant is
/// shown on the device only until the list is fetched again and the server's value replaces it.
/// An upsert that meets a row updates every column it sends, so it gets a sent value only in the
/// columns that tell its row (its conflict columns, or the key), and elsewhere only values shown
/// only, which a cached row it merges into keeps its own values for (one that ignores duplicates
/// changes no existing row, and gets every value as an insert does).
public struct TableSettings: Sendable, Hashable {
    /// The key columns (the primary key, or a unique key rows are told apart by); `["id"]` by
    /// default.
    public var key: [String]
    /// Columns the device fills in when a written row lacks them.
    public var madeOnDevice: [String: DeviceValue]
    /// For each table this one embeds one row of, the column of this table that names that row
    /// by its key (`["profiles": "author_id"]`: a foreign key to `profiles`' key).
    ///
    /// A row written on the device to a table with settings that joins a list embedding one row
    /// (`user:user_id(*)`, `author:profiles!author_id(name)`) shows the embed as a cached row of this table with the
    /// same value in that column holds it, which needs nothing declared when the `select` text
    /// names the column. Declared, an embed that does not name it (`profiles(name)`) follows it
    /// too, and with no such cached row the embed is made from the embedded table's own cached
    /// row with that key, with the columns the embed reads (`null` for a `null` column).
    public var foreignKeys: [String: String]

    /// Settings with `key`, the values made on the device, and the columns embeds follow.
    public init(
        key: [String] = ["id"], madeOnDevice: [String: DeviceValue] = [:], foreignKeys: [String: String] = [:]
    ) {
        self.key = key
        self.madeOnDevice = madeOnDevice
        self.foreignKeys = foreignKeys
    }
}

/// A value the device makes for a column a written row lacks (see ``TableSettings``).
public struct DeviceValue: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case uuid
        case now
        case constant(JSONValue)
    }

    let kind: Kind
    /// Whether the value goes to the server with the row; otherwise it is shown on the device
    /// only, until the list is fetched again.
    public let isSent: Bool

    /// A new UUID in lower case, as PostgreSQL writes one; sent, so the server keeps the same key.
    public static let uuid = DeviceValue(kind: .uuid, isSent: true)
    /// The time of the write in ISO 8601 with milliseconds, in UTC (`2026-01-05T09:30:00.000Z`),
    /// shown only: the server's `now()` replaces it when the list is fetched again.
    public static let now = DeviceValue(kind: .now, isSent: false)

    /// A constant shown on the device only (the column's default on the server, such as
    /// `false` or `0`).
    public static func constant(_ value: JSONValue) -> DeviceValue {
        DeviceValue(kind: .constant(value), isSent: false)
    }

    /// This value, sent with the row as well (the server keeps it instead of its own default).
    public func sent() -> DeviceValue { DeviceValue(kind: kind, isSent: true) }

    /// The value for a row written at `date`.
    func value(at date: Date) -> JSONValue {
        switch kind {
        case .uuid: return .string(UUID.random().lowercasedText)
        case .now: return .string(Self.timestamp(date))
        case .constant(let value): return value
        }
    }

    private static func timestamp(_ date: Date) -> String {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        return date.formatted(format)
    }
}

extension Configuration {
    /// The key columns per table: ``primaryKeys`` with ``tables``' keys over them.
    var keyColumns: [String: [String]] {
        primaryKeys.merging(tables.mapValues(\.key)) { _, settings in settings }
    }

    /// The columns embeds follow per table, as ``tables`` declares them: every table with
    /// settings, so its written rows take embeds of one row (with none declared, those whose
    /// `select` text names their column).
    var foreignKeys: [String: [String: String]] {
        tables.mapValues(\.foreignKeys)
    }

    /// `draft` with the values ``tables`` makes on the device filled into each inserted or
    /// upserted row that lacks them, made at `date`. A column the device made for every row and
    /// does not send is kept out of the request (``Mutation/shownOnlyColumns``); one only some
    /// rows lacked is sent, so the rows of one request carry the same columns.
    ///
    /// A merging upsert that meets a row updates every column it sends: a value made for it is sent only
    /// in a column that tells its row (its conflict columns, or the key), never over the row's
    /// own id or time; elsewhere only a value shown only, made for every row (the overlay keeps a
    /// merged row's own value over it).
    func fillingDeviceValues(_ draft: Mutation, at date: Date) -> Mutation {
        guard draft.operation == .insert || draft.operation == .upsert,
            let made = tables[draft.table]?.madeOnDevice, !made.isEmpty
        else { return draft }
        // An upsert that ignores duplicates changes no existing row: made as for an insert.
        let tellsRow: Set<String>? =
            draft.operation == .upsert && !draft.ignoreDuplicates
            ? Set(draft.onConflict.flatMap { $0.isEmpty ? nil : $0 } ?? keyColumns[draft.table] ?? ["id"])
            : nil
        var write = draft
        var rows = draft.rows
        var shownOnly: Set<String> = []
        for (column, value) in made.sorted(by: { $0.key < $1.key }) {
            let lacking = rows.indices.filter { rows[$0][column] == nil }
            guard !lacking.isEmpty else { continue }
            if let tellsRow, !tellsRow.contains(column), value.isSent || lacking.count < rows.count {
                continue
            }
            for index in lacking { rows[index][column] = value.value(at: date) }
            if !value.isSent, lacking.count == rows.count { shownOnly.insert(column) }
        }
        write.rows = rows
        write.shownOnlyColumns = draft.shownOnlyColumns.union(shownOnly)
        return write
    }
}
