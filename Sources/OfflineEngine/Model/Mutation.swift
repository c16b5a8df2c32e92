import Foundation
import Synchronization

/// The kind of a write.
public enum MutationOperation: String, Sendable, Hashable, CaseIterable {
    /// `POST` new rows.
    case insert
    /// `POST` with `Prefer: resolution=...`: insert, or merge into the row with the same key.
    case upsert
    /// `PATCH` the rows a filter matches.
    case update
    /// `DELETE` the rows a filter matches.
    case delete
}

/// A write as the engine keeps it: everything needed to send it again after a restart and to
/// lay it over cached lists.
///
/// A value with its parts in one shared box, copied on the first change: the queue, each table's
/// queued writes, the facts sent to live reads and the replay log all hold the same write, so
/// each copy costs a reference, not the whole write (measured: 100,000 queued writes held a
/// copy of ~160 bytes in each of those places). A write read back from the queue keeps its
/// stored bytes until its rows or filters are first needed (see ``StoredBody``), so opening
/// the client reads the queue without decoding it.
package struct Mutation: Sendable, Hashable, Identifiable {
    /// What the queue's columns hold: known without decoding the stored bytes.
    private struct Header: Sendable, Hashable {
        /// A unique id, made on the device.
        var id: UUID
        /// The user who made the write, or `nil` when nobody was signed in.
        var ownerID: String?
        /// The schema, or `nil` for the default.
        var schema: String?
        /// The table.
        var table: String
        /// Insert, upsert, update or delete.
        var operation: MutationOperation
        /// When the write was made.
        var createdAt: Date
        /// How many times it was sent without an answer that settled it.
        var attempts: Int
    }

    /// The box; its header is changed only when this value holds the one reference to it, so no
    /// other value (on any thread) sees the change. Its body is set once: at creation, or by
    /// whichever thread first needs the stored bytes decoded (an atomic exchange, so that reading
    /// a decoded body takes no lock: every live read lays the same writes at once).
    private final class Storage: @unchecked Sendable {
        var header: Header
        /// The stored bytes of a write read back from the queue; `nil` for one made from parts.
        let payload: Data?
        private let decoded: Atomic<Unmanaged<BodyBox>?>

        init(_ header: Header, body: MutationBody) {
            self.header = header
            payload = nil
            decoded = Atomic(Unmanaged.passRetained(BodyBox(body)))
        }

        /// A box with `header` and the decoded body `box`, shared: a body never changes once
        /// boxed (``replaceBody(_:)`` puts a new box in its place).
        init(_ header: Header, sharing box: BodyBox) {
            self.header = header
            payload = nil
            decoded = Atomic(Unmanaged.passRetained(box))
        }

        init(_ header: Header, payload: Data) {
            self.header = header
            self.payload = payload
            decoded = Atomic(nil)
        }

        deinit { decoded.load(ordering: .acquiring)?.release() }

        /// The body, decoded from the stored bytes first if no thread has yet.
        var box: BodyBox {
            if let box = decoded.load(ordering: .acquiring) { return box.takeUnretainedValue() }
            let made = Unmanaged.passRetained(BodyBox(StoredBody.decode(payload ?? Data(), id: header.id)))
            let (won, current) = decoded.compareExchange(
                expected: nil, desired: made, ordering: .acquiringAndReleasing)
            if won { return made.takeUnretainedValue() }
            made.release()
            return current!.takeUnretainedValue()
        }

        /// Replaces the body; only while one value holds this box.
        func replaceBody(_ body: MutationBody) {
            decoded.exchange(Unmanaged.passRetained(BodyBox(body)), ordering: .acquiringAndReleasing)?
                .release()
        }

        /// A box of its own with the same header and body (still undecoded if this one is): a
        /// decoded body is shared, not boxed again (a new write's draft is copied once, as its
        /// owner and time are set).
        func copy() -> Storage {
            if let decoded = decoded.load(ordering: .acquiring) {
                return Storage(header, sharing: decoded.takeUnretainedValue())
            }
            if let payload { return Storage(header, payload: payload) }
            return Storage(header, body: box.body)
        }
    }

    /// A decoded body, shared by reference.
    private final class BodyBox: Sendable {
        let body: MutationBody
        init(_ body: MutationBody) { self.body = body }
    }

    private var storage: Storage

    /// A unique id, made on the device.
    package var id: UUID {
        get { storage.header.id }
        set { unique().header.id = newValue }
    }
    /// The user who made the write, or `nil` when nobody was signed in.
    package var ownerID: String? {
        get { storage.header.ownerID }
        set { unique().header.ownerID = newValue }
    }
    /// The schema, or `nil` for the default.
    package var schema: String? {
        get { storage.header.schema }
        set { unique().header.schema = newValue }
    }
    /// The table.
    package var table: String {
        get { storage.header.table }
        set { unique().header.table = newValue }
    }
    /// Insert, upsert, update or delete.
    package var operation: MutationOperation {
        get { storage.header.operation }
        set { unique().header.operation = newValue }
    }
    // Each part of the body is read in place (`storage.box.body.rows`, the body decoded first if
    // need be): a key path over a copy of the body retained and released every part of it at
    // each read (about 2% of an offline `execute()`).

    /// The rows sent: the new rows of an insert or upsert, the one patch row of an update,
    /// none for a delete.
    package var rows: [Row] {
        get { storage.box.body.rows }
        set { changeBody { $0.rows = newValue } }
    }
    /// The filters of an update or delete.
    package var filters: [Filter] {
        get { storage.box.body.filters }
        set { changeBody { $0.filters = newValue } }
    }
    /// An upsert's conflict columns (`on_conflict`), or `nil` for the primary key.
    package var onConflict: [String]? {
        get { storage.box.body.onConflict }
        set { changeBody { $0.onConflict = newValue } }
    }
    /// An upsert that keeps the existing row (`resolution=ignore-duplicates`).
    package var ignoreDuplicates: Bool {
        get { storage.box.body.ignoreDuplicates }
        set { changeBody { $0.ignoreDuplicates = newValue } }
    }
    /// Absent columns take their default (`Prefer: missing=default`).
    package var useDefaultForMissing: Bool {
        get { storage.box.body.useDefaultForMissing }
        set { changeBody { $0.useDefaultForMissing = newValue } }
    }
    /// The `select` text when the write asks for its rows back (`Prefer: return=representation`).
    package var returning: String? {
        get { storage.box.body.returning }
        set { changeBody { $0.returning = newValue } }
    }
    /// An update or delete that must reach a row (``WriteQuery/expectingRows(_:)``).
    package var expectsRows: Bool {
        get { storage.box.body.expectsRows }
        set { changeBody { $0.expectsRows = newValue } }
    }
    /// Columns made on the device that are shown only, never sent.
    package var shownOnlyColumns: Set<String> {
        get { storage.box.body.shownOnlyColumns }
        set { changeBody { $0.shownOnlyColumns = newValue } }
    }
    /// The rows as the request sends them: ``rows`` without the columns shown on the device only.
    package var sentRows: [Row] {
        let hidden = shownOnlyColumns
        guard !hidden.isEmpty else { return rows }
        return rows.map { row in Row(row.values.filter { !hidden.contains($0.key) }) }
    }
    /// The rows as PostgREST applies them. Several rows are sent with `columns=` naming every
    /// row's keys, so a column a row leaves out is set to NULL, in an inserted row and in the
    /// existing row a merge meets; with `missing=default` it takes the server's default, not
    /// known here, so it stays out.
    package var appliedRows: [Row] {
        let rows = rows
        guard rows.count > 1, !useDefaultForMissing, operation == .insert || operation == .upsert else {
            return rows
        }
        let columns = Set(sentRows.lazy.flatMap(\.values.keys))
        return rows.map { row in
            guard !columns.isSubset(of: row.values.keys) else { return row }
            var values = row.values
            for column in columns where values[column] == nil { values[column] = .null }
            return Row(values)
        }
    }
    /// When the write was made.
    package var createdAt: Date {
        get { storage.header.createdAt }
        set { unique().header.createdAt = newValue }
    }
    /// How many times it was sent without an answer that settled it.
    package var attempts: Int {
        get { storage.header.attempts }
        set { unique().header.attempts = newValue }
    }

    /// A write from its parts.
    package init(
        id: UUID = .random(), ownerID: String? = nil, schema: String? = nil, table: String,
        operation: MutationOperation, rows: [Row] = [], filters: [Filter] = [],
        onConflict: [String]? = nil, ignoreDuplicates: Bool = false, useDefaultForMissing: Bool = false,
        returning: String? = nil, createdAt: Date = Date(), attempts: Int = 0
    ) {
        storage = Storage(
            Header(
                id: id, ownerID: ownerID, schema: schema, table: table, operation: operation,
                createdAt: createdAt, attempts: attempts),
            body: MutationBody(
                rows: rows, filters: filters, onConflict: onConflict, ignoreDuplicates: ignoreDuplicates,
                useDefaultForMissing: useDefaultForMissing, returning: returning))
    }

    /// A queued write read back from the store: its columns, and its stored bytes, decoded when
    /// its body is first needed.
    package init(
        storedAs payload: Data, id: UUID, ownerID: String?, schema: String?, table: String,
        operation: MutationOperation, createdAt: Date, attempts: Int
    ) {
        storage = Storage(
            Header(
                id: id, ownerID: ownerID, schema: schema, table: table, operation: operation,
                createdAt: createdAt, attempts: attempts),
            payload: payload)
    }

    /// Whether the write's stored bytes could be read. A write that could not is never sent or
    /// laid over a list: replay rejects it (``StoredWriteUnreadable``).
    package var isReadable: Bool { storage.box.body.isReadable }

    /// Changes the body of this value's own box.
    private mutating func changeBody(_ change: (inout MutationBody) -> Void) {
        var body = storage.box.body
        change(&body)
        unique().replaceBody(body)
    }

    /// The box, copied first when another value shares it (an undecoded body stays undecoded).
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    package static func == (lhs: Mutation, rhs: Mutation) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.storage.header == rhs.storage.header && lhs.storage.box.body == rhs.storage.box.body)
    }

    package func hash(into hasher: inout Hasher) {
        storage.header.hash(into: &hasher)
        storage.box.body.hash(into: &hasher)
    }
}
